//! Rulings: why a move is legal or not, in words that name the pieces and squares involved, with
//! the reason code and the clause of the rule book. Slow on purpose — it re-runs the rules one
//! condition at a time — and used only when a person or a script asks.

use super::{Move, MoveKind, Position};
use crate::model::*;
use crate::notation::uci;

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq)]
pub struct Illegal {
    /// Stable reason code (`royal-attacked`, `castling-through-check`, ...).
    pub code: &'static str,
    /// A sentence naming pieces and squares.
    pub message: String,
    /// The clause cited by the rule that forbids it (`FIDE 3.9.2`).
    pub clause: Option<String>,
}

/// The ruling on one move.
#[derive(Clone, Debug, PartialEq)]
pub enum Ruling {
    Legal { mv: Move, clause: Option<String>, message: String },
    Illegal(Illegal),
}

fn piece_name(pos: &Position, sq: usize) -> String {
    let rules = pos.rules();
    match pos.piece_at(sq) {
        Some((k, _)) => format!("the {} on {}", rules.kind(k).name.to_lowercase(), rules.board.name(sq)),
        None => format!("the empty square {}", rules.board.name(sq)),
    }
}

fn illegal(code: &'static str, message: String, clause: Option<String>) -> Ruling {
    Ruling::Illegal(Illegal { code, message, clause })
}

impl Position {
    /// Rules on a move written in coordinates (`e2e4`, `e7e8q`).
    pub fn explain(&self, text: &str) -> Ruling {
        let rules = self.rules().clone();
        let b = &rules.board;
        let Some(mt) = uci::parse_text(self, text) else {
            return illegal(
                "unreadable-move",
                format!(
                    "`{text}` is not a move: write the from and to squares, like {}{}",
                    b.name(0),
                    b.name(b.width)
                ),
                None,
            );
        };
        let us = self.side_to_move();
        let Some((kind, side)) = self.piece_at(mt.from) else {
            return illegal("empty-square", format!("there is no piece on {}", b.name(mt.from)), None);
        };
        if side != us {
            return illegal(
                "not-your-piece",
                format!(
                    "{} belongs to {}, and it is {}'s move",
                    piece_name(self, mt.from),
                    rules.players[side.index()].name,
                    rules.players[us.index()].name
                ),
                None,
            );
        }
        let legal = self.legal_moves();
        let same_squares: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.from as usize == mt.from && m.to as usize == mt.to)
            .collect();
        if !same_squares.is_empty() {
            let promos: Vec<char> = same_squares
                .iter()
                .filter_map(|m| m.promotion())
                .map(|k| rules.kind(k).letter.to_ascii_lowercase())
                .collect();
            let found = same_squares.iter().find(|m| match (m.promotion(), mt.promo) {
                (None, None) => true,
                (Some(k), Some(c)) => rules.kind(k).letter.eq_ignore_ascii_case(&c),
                _ => false,
            });
            return match found {
                Some(m) => Ruling::Legal {
                    mv: *m,
                    clause: self.clause_of(*m),
                    message: self.describe(*m),
                },
                None if mt.promo.is_none() => {
                    let clause = rules.kind(kind).promotion.as_ref().and_then(|p| rules.citation(&p.cite));
                    illegal(
                        "promotion-required",
                        format!(
                            "{} must promote on {}: add one of {}",
                            piece_name(self, mt.from),
                            b.name(mt.to),
                            promos.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
                        ),
                        clause,
                    )
                }
                None => illegal(
                    "invalid-promotion",
                    format!(
                        "{} cannot promote to `{}` here; the choices are {}",
                        piece_name(self, mt.from),
                        mt.promo.unwrap_or('?'),
                        if promos.is_empty() {
                            "none".to_string()
                        } else {
                            promos.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
                        }
                    ),
                    rules.kind(kind).promotion.as_ref().and_then(|p| rules.citation(&p.cite)),
                ),
            };
        }
        // Pseudo-legal but illegal: it would expose a royal.
        let pseudo: Vec<Move> = self
            .pseudo_moves()
            .into_iter()
            .filter(|m| m.from as usize == mt.from && m.to as usize == mt.to)
            .collect();
        if let Some(&m) = pseudo.first() {
            let castle = matches!(m.kind, MoveKind::Castle(_));
            let exposed = self.exposing(m);
            if let Some(&(r, a)) = exposed.first() {
                let code = if castle { "castling-into-check" } else { "royal-attacked" };
                let clause = if castle {
                    self.castle_clause(m, |c| c.path_safe.clone())
                        .or_else(|| rules.royal_safety.clone().and_then(|c| rules.citation(&c)))
                } else {
                    rules.royal_safety.clone().and_then(|c| rules.citation(&c))
                };
                let r_name = {
                    let mut after = self.clone();
                    after.play_unchecked(m);
                    piece_name(&after, r)
                };
                return illegal(code, format!("{} would be attacked by {}", r_name, piece_name(self, a)), clause);
            }
            if let Some(&(r, e)) = self.facing_after(m).first() {
                let mut after = self.clone();
                after.play_unchecked(m);
                let clause = rules.royals_facing.as_ref().and_then(|(_, c)| rules.citation(c));
                return illegal(
                    "royals-facing",
                    format!(
                        "{} would face {} with nothing between them",
                        piece_name(&after, r),
                        piece_name(&after, e)
                    ),
                    clause,
                );
            }
        }
        if let Some(r) = self.explain_castling(kind, mt.from, mt.to) {
            return r;
        }
        self.explain_forms(kind, mt.from, mt.to)
    }

    fn clause_of(&self, m: Move) -> Option<String> {
        let rules = self.rules();
        if let Some((k, i)) = self.form_of(m) {
            return rules.citation(&rules.kind(k).forms[i].cite);
        }
        self.castle_of(m).and_then(|(k, i)| rules.citation(&rules.kind(k).castles[i].cite))
    }

    fn describe(&self, m: Move) -> String {
        let rules = self.rules();
        let b = &rules.board;
        let mut s = format!("{} moves to {}", piece_name(self, m.from as usize), b.name(m.to as usize));
        if let Some(k) = m.promotion() {
            s.push_str(&format!(" and becomes a {}", rules.kind(k).name.to_lowercase()));
        }
        if matches!(m.kind, MoveKind::Castle(_)) {
            s = format!("{} castles to {}", piece_name(self, m.from as usize), b.name(m.to as usize));
        }
        s
    }

    fn castle_clause(&self, m: Move, pick: impl Fn(&Castle) -> Option<Option<String>>) -> Option<String> {
        let rules = self.rules();
        let (k, i) = self.castle_of(m)?;
        let c = &rules.kind(k).castles[i];
        pick(c).flatten().or_else(|| c.cite.clone()).and_then(|c| rules.citation(&Some(c)))
    }

    /// If `from → to` has the shape of a castling move, the condition that forbids it.
    fn explain_castling(&self, kind: KindId, from: usize, to: usize) -> Option<Ruling> {
        let rules = self.rules().clone();
        let b = &rules.board;
        let k = rules.kind(kind);
        let us = self.side_to_move();
        for c in &k.castles {
            if b.rank(from) != b.rank(to) || b.file(from).abs_diff(b.file(to)) != c.distance as usize {
                continue;
            }
            let cite = |x: &Option<Option<String>>| rules.citation(&x.clone().flatten().or_else(|| c.cite.clone()));
            let dir: i32 = if b.file(to) > b.file(from) { 1 } else { -1 };
            let king_name = piece_name(self, from);
            let virgin = self.virgin_squares();
            if c.unmoved.is_some() && !virgin.contains(&from) {
                return Some(illegal(
                    "castling-rights-lost",
                    format!("{king_name} has already moved, so it can no longer castle"),
                    cite(&c.unmoved),
                ));
            }
            // The partner: the farthest own partner piece along the rank in that direction.
            let mut partner = None;
            let mut between = Vec::new();
            let mut cur = from;
            while let Some(n) = b.offset(cur, dir, 0) {
                if let Some((pk, ps)) = self.piece_at(n) {
                    if pk == c.partner && ps == us {
                        partner = Some(n);
                    }
                }
                cur = n;
            }
            let Some(rook) = partner else {
                return Some(illegal(
                    "castling-rights-lost",
                    format!(
                        "there is no {} on that side for {king_name} to castle with",
                        rules.kind(c.partner).name.to_lowercase()
                    ),
                    cite(&c.partner_unmoved),
                ));
            };
            if c.partner_unmoved.is_some() && !virgin.contains(&rook) {
                return Some(illegal(
                    "castling-rights-lost",
                    format!(
                        "{} has already moved, so castling with it is no longer possible",
                        piece_name(self, rook)
                    ),
                    cite(&c.partner_unmoved),
                ));
            }
            let mut cur = from;
            while let Some(n) = b.offset(cur, dir, 0) {
                if n == rook {
                    break;
                }
                if self.piece_at(n).is_some() {
                    between.push(n);
                }
                cur = n;
            }
            if let Some(&x) = between.first() {
                return Some(illegal(
                    "castling-path-blocked",
                    format!("{} stands between {king_name} and {}", piece_name(self, x), piece_name(self, rook)),
                    cite(&c.empty_between),
                ));
            }
            let them = us.other();
            if c.not_in_check.is_some() {
                if let Some(&a) = self.attackers_of(from, them).first() {
                    return Some(illegal(
                        "castling-in-check",
                        format!(
                            "castling is not allowed while the king is in check: {king_name} is attacked by {}",
                            piece_name(self, a)
                        ),
                        cite(&c.not_in_check),
                    ));
                }
            }
            if c.path_safe.is_some() {
                let mut cur = from;
                for _ in 0..c.distance {
                    let Some(n) = b.offset(cur, dir, 0) else { break };
                    if let Some(&a) = self.attackers_of(n, them).first() {
                        return Some(illegal(
                            "castling-through-check",
                            format!(
                                "castling through an attacked square {}: {} attacks it",
                                b.name(n),
                                piece_name(self, a)
                            ),
                            cite(&c.path_safe),
                        ));
                    }
                    cur = n;
                }
            }
        }
        None
    }

    /// Why no movement clause of the piece takes it from `from` to `to`.
    fn explain_forms(&self, kind: KindId, from: usize, to: usize) -> Ruling {
        let rules = self.rules().clone();
        let b = &rules.board;
        let us = self.side_to_move();
        let k = rules.kind(kind);
        let name = piece_name(self, from);
        let target = self.piece_at(to);
        if target.is_some_and(|(_, s)| s == us) {
            return illegal(
                "occupied-by-own-piece",
                format!("{} cannot move onto {}, its own side's piece", name, piece_name(self, to)),
                None,
            );
        }
        let virgin = self.virgin_squares();
        let mut best: Option<Ruling> = None;
        for (i, f) in k.forms.iter().enumerate() {
            if !self.clause_reach(us, kind, i, from, true).contains(&to) {
                continue;
            }
            let cite = rules.citation(&f.cite);
            let rule_text = if f.text.is_empty() {
                String::new()
            } else {
                format!(" (`{}`)", f.text)
            };
            let r = if f.from.as_ref().is_some_and(|z| !z[us].contains(from)) {
                illegal(
                    "wrong-start-square",
                    format!("{name} can move this way only from its starting zone{rule_text}"),
                    cite,
                )
            } else if f.unmoved && !virgin.contains(&from) {
                illegal(
                    "piece-has-moved",
                    format!("{name} can move this way only before it has moved{rule_text}"),
                    cite,
                )
            } else if !self.clause_reach(us, kind, i, from, false).contains(&to) {
                let blocker = (0..b.squares())
                    .filter(|&s| s != from && s != to && self.piece_at(s).is_some())
                    .find(|&s| between(b, from, to, s));
                match blocker {
                    Some(x) => illegal(
                        "blocked",
                        format!(
                            "{name} cannot reach {}: {} is in the way{rule_text}",
                            b.name(to),
                            piece_name(self, x)
                        ),
                        cite,
                    ),
                    None => illegal("blocked", format!("{name} cannot reach {} from here{rule_text}", b.name(to)), cite),
                }
            } else {
                match (f.target, target) {
                    (Target::Empty, Some(_)) => illegal(
                        "needs-empty-target",
                        format!(
                            "{name} may move this way only to an empty square, and {} is taken{rule_text}",
                            b.name(to)
                        ),
                        cite,
                    ),
                    (Target::Enemy, None) => illegal(
                        "needs-enemy-target",
                        format!("{name} may move this way only to capture, and {} is empty{rule_text}", b.name(to)),
                        cite,
                    ),
                    (Target::EnPassant, _) => illegal(
                        "en-passant-unavailable",
                        format!(
                            "en passant on {} is possible only right after an enemy piece passed over it{rule_text}",
                            b.name(to)
                        ),
                        cite,
                    ),
                    _ => continue,
                }
            };
            // Prefer explanations from clauses that got furthest (not the start-zone ones).
            let rank = |r: &Ruling| match r {
                Ruling::Illegal(i) if i.code == "wrong-start-square" => 0,
                _ => 1,
            };
            if best.as_ref().is_none_or(|b| rank(&r) > rank(b)) {
                best = Some(r);
            }
        }
        best.unwrap_or_else(|| {
            illegal(
                "no-such-move",
                format!("a {} cannot move from {} to {}", k.name.to_lowercase(), b.name(from), b.name(to)),
                None,
            )
        })
    }
}

/// Is `s` on the straight line strictly between `a` and `c`?
fn between(b: &Board, a: usize, c: usize, s: usize) -> bool {
    let (fa, ra) = (b.file(a) as i32, b.rank(a) as i32);
    let (fc, rc) = (b.file(c) as i32, b.rank(c) as i32);
    let (fs, rs) = (b.file(s) as i32, b.rank(s) as i32);
    let cross = (fc - fa) * (rs - ra) - (rc - ra) * (fs - fa);
    cross == 0 && fs >= fa.min(fc) && fs <= fa.max(fc) && rs >= ra.min(rc) && rs <= ra.max(rc)
}
