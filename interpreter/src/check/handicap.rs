//! Handicap stones in the setup: `setup empty, plus handicap Stone on handicap points, white
//! receives handicap instead of komi`. The points are the fixed handicap points every go program
//! uses (GTP's `fixed_handicap`, as GNU Go answers it): on the 3rd line from each edge (the 4th on
//! boards of 12 lines or more), the corners first, then the centre for an odd count, the middle of
//! the left and right edges from 6 stones, the middle of the top and bottom edges from 8. Boards
//! under 7 lines take none; boards with an even number of lines, or 7, at most 4.

use crate::diag::{Diagnostic, Span, codes};
use crate::model::{Board, KindId};
use crate::syntax::ast;

use super::Cx;

/// A handicap as the checker resolved it: how many stones of which kind, and the compensation's
/// replacement for a scoring parameter (the parameter's name and the value, as komi: added to the
/// second player's count).
#[derive(Clone, Debug)]
pub(super) struct Resolved {
    pub stones: usize,
    pub kind: KindId,
    pub replaces: Option<(String, f64)>,
    pub span: Span,
}

/// The most handicap stones a board of `width` × `height` lines takes.
pub fn most(width: usize, height: usize) -> usize {
    let (lo, hi) = (width.min(height), width.max(height));
    if lo < 7 || hi > 25 {
        0
    } else if width % 2 == 1 && height % 2 == 1 && lo >= 9 {
        9
    } else {
        4
    }
}

/// The points of `n` handicap stones (2 ≤ n ≤ [`most`]), as square indices (`y * width + x`, rank 1
/// first), the first player at the bottom.
pub fn points(width: usize, height: usize, n: usize) -> Vec<usize> {
    let line = |size: usize| if size >= 12 { 3 } else { 2 };
    let (kx, ky) = (line(width), line(height));
    let (left, right, bottom, top) = (kx, width - 1 - kx, ky, height - 1 - ky);
    let (mx, my) = (width / 2, height / 2);
    let at = |x: usize, y: usize| y * width + x;
    let mut v = vec![at(right, top), at(left, bottom)];
    if n >= 3 {
        v.push(at(left, top));
    }
    if n >= 4 {
        v.push(at(right, bottom));
    }
    if n >= 6 {
        v.push(at(left, my));
        v.push(at(right, my));
    }
    if n >= 8 {
        v.push(at(mx, top));
        v.push(at(mx, bottom));
    }
    if n >= 5 && n % 2 == 1 {
        v.push(at(mx, my));
    }
    v
}

/// Resolves the handicap clause of the setup, if there is one: the count (0, or 2 up to what the
/// board takes), the piece, the compensated side and what it receives.
pub(super) fn resolve(cx: &mut Cx, h: &ast::Handicap, board: &Board, players: &[String]) -> Option<Resolved> {
    let n = cx.count(&h.count, "a handicap", 0, 9)?;
    let kind = cx.kind(&h.piece)?;
    let most = most(board.width, board.height);
    if n == 1 {
        cx.diags.push(
            Diagnostic::error(
                codes::BOUND,
                h.count.span(),
                "a handicap is 2 stones or more (0 for an even game), not 1",
            )
            .label("one stone")
            .help("use 0 for an even game; a single stone is the first move itself"),
        );
        return None;
    }
    if n as usize > most {
        let msg = if most == 0 {
            format!("a {} × {} board takes no handicap stones", board.width, board.height)
        } else {
            format!(
                "a {} × {} board takes at most {most} handicap stones, not {n}",
                board.width, board.height
            )
        };
        cx.diags
            .push(Diagnostic::error(codes::BOUND, h.count.span(), msg).label("too many"));
        return None;
    }
    let mut replaces = None;
    if let Some((side, amount, param)) = &h.compensation {
        let Some(i) = players.iter().position(|p| *p == side.name) else {
            cx.diags.push(
                Diagnostic::error(
                    codes::UNKNOWN_NAME,
                    side.span,
                    format!("`{}` is not a player of this game", side.name),
                )
                .label("not a player")
                .help(format!("the players are {}", players.join(" and "))),
            );
            return None;
        };
        let amount = cx.count(amount, "a handicap compensation", 0, 1000)? as f64;
        if !cx.params.contains_key(&param.name) {
            cx.unknown_param(param);
            return None;
        }
        cx.used.insert(format!("param {}", param.name));
        if n > 0 {
            replaces = Some((param.name.clone(), if i == 1 { amount } else { -amount }));
        }
    }
    Some(Resolved {
        stones: n as usize,
        kind,
        replaces,
        span: h.span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GTP's fixed points as GNU Go names them (`fixed_handicap N` on a board of that size), in
    /// our coordinates: files A.. skipping I, ranks from 1.
    fn named(size: usize, n: usize) -> Vec<String> {
        let files: Vec<char> = ('A'..='Z').filter(|&c| c != 'I').collect();
        let mut v: Vec<String> = points(size, size, n)
            .into_iter()
            .map(|sq| format!("{}{}", files[sq % size], sq / size + 1))
            .collect();
        v.sort();
        v
    }

    fn sorted(s: &str) -> Vec<String> {
        let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
        v.sort();
        v
    }

    #[test]
    fn the_points_are_gtps_fixed_handicap_points() {
        // GNU Go 3.8, `fixed_handicap N` after `boardsize S`.
        let gnugo = [
            (19, 2, "Q16 D4"),
            (19, 3, "D16 Q16 D4"),
            (19, 4, "D16 Q16 D4 Q4"),
            (19, 5, "D16 Q16 K10 D4 Q4"),
            (19, 6, "D16 Q16 D10 Q10 D4 Q4"),
            (19, 7, "D16 Q16 D10 K10 Q10 D4 Q4"),
            (19, 8, "D16 K16 Q16 D10 Q10 D4 K4 Q4"),
            (19, 9, "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"),
            (13, 3, "D10 K10 D4"),
            (13, 8, "D10 G10 K10 D7 K7 D4 G4 K4"),
            (9, 2, "G7 C3"),
            (9, 5, "C7 G7 E5 C3 G3"),
            (9, 9, "C7 E7 G7 C5 E5 G5 C3 E3 G3"),
            (7, 4, "C5 E5 C3 E3"),
            (10, 4, "C8 H8 C3 H3"),
        ];
        for (size, n, want) in gnugo {
            assert_eq!(named(size, n), sorted(want), "{size} × {size}, {n} stones");
        }
    }

    #[test]
    fn small_and_even_boards_take_fewer_stones() {
        assert_eq!(most(19, 19), 9);
        assert_eq!(most(9, 9), 9);
        assert_eq!(most(7, 7), 4);
        assert_eq!(most(8, 8), 4);
        assert_eq!(most(10, 10), 4);
        assert_eq!(most(6, 6), 0);
        assert_eq!(most(2, 2), 0);
    }
}
