//! The board, its coordinate names and drawings; named directions; zones.

use super::Cx;
use crate::diag::{Diagnostic, Span, codes};
use crate::model::*;
use crate::syntax::ast;

/// Built-in directions, from the first player's side (`forward` is towards higher ranks). On a
/// board of hexes `orthogonal`, `any` and `adjacent` are the six neighbours, and `north-west` and
/// `south-east` are the two neighbours that are not along a file or a rank.
pub fn builtin_direction(name: &str, hexes: bool) -> Option<Vec<(i32, i32)>> {
    if hexes {
        match name {
            "orthogonal" | "any" | "adjacent" => return Some(HEX_NEIGHBOURS.to_vec()),
            "north-west" => return Some(vec![(-1, 1)]),
            "south-east" => return Some(vec![(1, -1)]),
            "diagonal" | "forward-diagonal" | "backward-diagonal" => return None,
            _ => {}
        }
    }
    Some(match name {
        "forward" | "north" => vec![(0, 1)],
        "backward" | "south" => vec![(0, -1)],
        "right" | "east" => vec![(1, 0)],
        "left" | "west" => vec![(-1, 0)],
        "sideways" | "horizontal" => vec![(1, 0), (-1, 0)],
        "vertical" => vec![(0, 1), (0, -1)],
        "orthogonal" | "adjacent" => ORTHOGONAL.to_vec(),
        "diagonal" => DIAGONAL.to_vec(),
        "any" => ORTHOGONAL.iter().chain(&DIAGONAL).copied().collect(),
        "forward-diagonal" => vec![(1, 1), (-1, 1)],
        "backward-diagonal" => vec![(1, -1), (-1, -1)],
        _ => return None,
    })
}

const BUILTIN_DIRECTIONS: &[&str] = &[
    "forward",
    "backward",
    "left",
    "right",
    "north",
    "south",
    "east",
    "west",
    "sideways",
    "horizontal",
    "vertical",
    "orthogonal",
    "diagonal",
    "any",
    "adjacent",
    "forward-diagonal",
    "backward-diagonal",
];

/// Resolves `a | b | c` to a de-duplicated list of offsets.
pub(super) fn dirs(cx: &mut Cx, names: &[ast::Ident]) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for n in names {
        let hexes = cx.board.as_ref().is_some_and(|b| b.hexes);
        let found = builtin_direction(&n.name, hexes).or_else(|| {
            cx.directions.get(&n.name).map(|d| d.0.clone()).inspect(|_| {
                cx.used.insert(format!("direction {}", n.name));
            })
        });
        match found {
            Some(v) => {
                for d in v {
                    if !out.contains(&d) {
                        out.push(d);
                    }
                }
            }
            None if hexes && builtin_direction(&n.name, false).is_some() => {
                let d = Diagnostic::error(
                    codes::CONTRADICTION,
                    n.span,
                    format!("a board of hexes has no `{}` direction: its cells have six neighbours", n.name),
                )
                .label("square boards only")
                .help("use `orthogonal` (the six neighbours) or name offsets with `direction`");
                cx.diags.push(d);
            }
            None => {
                let cands = BUILTIN_DIRECTIONS.iter().copied().chain(cx.directions.keys().map(String::as_str));
                let d = super::unknown_name(&mut cx.suggestions_left, &n.name, n.span, "direction", cands);
                cx.diags.push(d);
            }
        }
    }
    out
}

fn letters_from(first: &str, skip: Option<&str>, n: usize) -> Option<Vec<String>> {
    let mut c = first.chars().next()?;
    if first.chars().count() != 1 || !c.is_ascii_alphabetic() {
        return None;
    }
    let mut v = Vec::new();
    while v.len() < n {
        if !c.is_ascii_alphabetic() {
            return None;
        }
        if Some(c.to_string().as_str()) != skip {
            v.push(c.to_string());
        }
        c = (c as u8 + 1) as char;
    }
    Some(v)
}

/// Coordinate names along one edge of `n` lines.
fn edge_names(cx: &mut Cx, names: Option<&ast::Names>, n: usize, default_letters: bool, edge: &str) -> Vec<String> {
    let default = || {
        if default_letters {
            letters_from("a", None, n).unwrap_or_default()
        } else {
            (1..=n).map(|i| i.to_string()).collect()
        }
    };
    let Some(names) = names else { return default() };
    let (v, span) = match names {
        ast::Names::List(v, span) => (v.clone(), *span),
        ast::Names::Range { first, last, skip, span } => {
            if let Some(last) = last {
                let last_text = match last {
                    ast::Count::Int(i, _) => Some(i.to_string()),
                    ast::Count::Param(p) if p.name.len() == 1 && !cx.params.contains_key(&p.name) => Some(p.name.clone()),
                    ast::Count::Param(_) | ast::Count::Expr(..) => cx
                        .count(last, "the last coordinate", 1, MAX_BOARD_SIDE as i64)
                        .map(|v| v.to_string()),
                };
                let Some(last_text) = last_text else { return default() };
                if let (Ok(a), Ok(b)) = (first.parse::<usize>(), last_text.parse::<usize>()) {
                    let given = b.max(a) - a + 1;
                    if given != n {
                        // Said before listing them: `ranks 1..99999999999` must not build the list.
                        cx.error(
                            codes::CONTRADICTION,
                            *span,
                            format!("the board has {n} {edge}, but {given} names are given"),
                        )
                        .label = format!("{given} names");
                        return default();
                    }
                    ((a..=b.max(a)).map(|i| i.to_string()).collect(), *span)
                } else {
                    let a = first.chars().next().unwrap_or('a');
                    let b = last_text.chars().next().unwrap_or('a');
                    let v: Vec<String> = (a..=b)
                        .map(|c| c.to_string())
                        .filter(|c| Some(c.as_str()) != skip.as_deref())
                        .collect();
                    (v, *span)
                }
            } else if let Some(a) = first.parse::<usize>().ok().filter(|a| a.checked_add(n).is_some()) {
                ((a..a + n).map(|i| i.to_string()).collect(), *span)
            } else {
                match letters_from(first, skip.as_deref(), n) {
                    Some(v) => (v, *span),
                    None => {
                        cx.error(codes::TYPE, *span, format!("cannot name {n} {edge} from `{first}`"));
                        return default();
                    }
                }
            }
        }
    };
    if v.len() != n {
        cx.error(
            codes::CONTRADICTION,
            span,
            format!("the board has {n} {edge}, but {} names are given", v.len()),
        )
        .label = format!("{} names", v.len());
        return default();
    }
    let mut seen = std::collections::HashSet::new();
    for s in &v {
        if !seen.insert(s) {
            cx.error(codes::DUPLICATE, span, format!("the name `{s}` is used twice along the {edge}"));
            return default();
        }
    }
    v
}

/// Resolves the board; `missing_at` is where to report its absence (`None`: do not report it).
pub(super) fn resolve_board(cx: &mut Cx, items: &[ast::Item], missing_at: Option<Span>) {
    let Some(b) = items.iter().find_map(|i| if let ast::Item::Board(b) = i { Some(b) } else { None }) else {
        if let Some(whole) = missing_at {
            cx.error(codes::MISSING, whole, "this ruleset has no `board`")
                .help
                .push("add `board 8 x 8 squares { files a..h  ranks 1..8 }`".into());
        }
        return;
    };
    let max = MAX_BOARD_SIDE as i64;
    let w = cx.count(&b.width, "the board's width", 1, max);
    let h = cx.count(&b.height, "the board's height", 1, max);
    let (Some(w), Some(h)) = (w, h) else { return };
    let (w, h) = (w as usize, h as usize);
    let file_names = edge_names(cx, b.files.as_ref(), w, true, "files");
    let rank_names = edge_names(cx, b.ranks.as_ref(), h, false, "ranks");
    let mut board = Board {
        width: w,
        height: h,
        points: b.points,
        hexes: b.hexes,
        file_names,
        rank_names,
        dark_parity: None,
        drawings: Vec::new(),
        holes: SquareSet::new(w * h),
    };
    if let Some((sq, dark, span)) = &b.checkered {
        match board.parse_square(sq) {
            Some(s) => {
                let p = (board.file(s) + board.rank(s)) % 2;
                board.dark_parity = Some(if *dark { p } else { 1 - p });
            }
            None => bad_square(cx, sq, *span, &board),
        }
    }
    for d in &b.drawings {
        match d {
            ast::Drawing::River { between: (a, c), span } => {
                let ra = board.rank_names.iter().position(|n| n == a);
                let rc = board.rank_names.iter().position(|n| n == c);
                match (ra, rc) {
                    (Some(x), Some(y)) if x.abs_diff(y) == 1 => board.drawings.push(Drawing::River { below: x.min(y) }),
                    (Some(_), Some(_)) => {
                        cx.error(codes::CONTRADICTION, *span, "a river runs between two neighbouring ranks");
                    }
                    _ => {
                        let bad = if ra.is_none() { a } else { c };
                        let d = Diagnostic::error(codes::UNKNOWN_NAME, *span, format!("this board has no rank `{bad}`"))
                            .help(format!("ranks are named {}", board.rank_names.join(" ")));
                        cx.diags.push(d);
                    }
                }
            }
            ast::Drawing::Lines { segments, span } => {
                for (a, c) in segments {
                    match (board.parse_square(a), board.parse_square(c)) {
                        (Some(x), Some(y)) => board.drawings.push(Drawing::Line { from: x, to: y }),
                        (None, _) => bad_square(cx, a, *span, &board),
                        (_, None) => bad_square(cx, c, *span, &board),
                    }
                }
            }
            ast::Drawing::Stars(_) => {
                for at in star_points(board.width, board.height) {
                    board.drawings.push(Drawing::Mark { at });
                }
            }
            ast::Drawing::Marks { squares, span } => {
                for s in squares {
                    match board.parse_square(s) {
                        Some(x) => board.drawings.push(Drawing::Mark { at: x }),
                        None => bad_square(cx, s, *span, &board),
                    }
                }
            }
        }
    }
    cx.board = Some(board);
    // Only these cells exist: the rest are holes. Evaluated on the whole grid, before any zone.
    if let Some(z) = &b.cells {
        let cells = zone_plain(cx, z, None);
        if let (Some(cells), Some(board)) = (cells, cx.board.as_mut()) {
            if cells.is_empty() {
                cx.diags.push(
                    Diagnostic::error(codes::CONTRADICTION, z.span, "no cell of the grid is left on the board")
                        .label("an empty set of cells"),
                );
            }
            let mut holes = SquareSet::full(board.squares());
            holes.subtract(&cells);
            board.holes = holes;
        }
    }
}

fn bad_square(cx: &mut Cx, s: &str, span: Span, board: &Board) {
    // A zone refused for a name that reads as a square: that one mistake is reported already.
    if cx.broken_zones.contains(s) {
        return;
    }
    let d = Diagnostic::error(codes::UNKNOWN_NAME, span, format!("`{s}` is not a square of this board")).help(format!(
        "squares run from {} to {}",
        board.name(0),
        board.name(board.squares() - 1)
    ));
    cx.diags.push(d);
}

pub(super) fn resolve_directions(cx: &mut Cx, items: &[ast::Item]) {
    for it in items {
        if let ast::Item::Direction(d) = it {
            if builtin_direction(&d.name.name, false).is_some() || builtin_direction(&d.name.name, true).is_some() {
                cx.error(codes::DUPLICATE, d.name.span, format!("`{}` is a built-in direction", d.name.name));
                continue;
            }
            let mut offsets = dirs(cx, &d.names);
            for &(x, y, span) in &d.offsets {
                if (x, y) == (0, 0) || x.unsigned_abs() as usize >= MAX_BOARD_SIDE || y.unsigned_abs() as usize >= MAX_BOARD_SIDE {
                    let shown = cx.src.shown(span);
                    cx.error(
                        codes::BOUND,
                        span,
                        format!("direction {shown} must be non-zero and shorter than {MAX_BOARD_SIDE}"),
                    );
                } else if !offsets.contains(&(x, y)) {
                    offsets.push((x, y));
                }
            }
            cx.directions.insert(d.name.name.clone(), (offsets, d.name.span));
        }
    }
}

fn coord_index(names: &[String], s: &str) -> Option<usize> {
    names.iter().position(|n| n == s)
}

/// Evaluates a zone expression to a set of squares for each player. Every term is evaluated, so
/// each problem is reported and each zone named counts as used. A term written out is seen from
/// the first player (the second player's is its mirror image); a named zone brings both players'
/// sets as they were defined.
pub(super) fn zone_by_side(cx: &mut Cx, e: &ast::ZoneExpr) -> Option<BySide<SquareSet>> {
    let mut acc = term_by_side(cx, &e.first);
    for (union, t) in &e.rest {
        let s = term_by_side(cx, t);
        acc = match (acc, s) {
            (Some(mut a), Some(s)) => {
                for (a, s) in a.0.iter_mut().zip(&s.0) {
                    if *union { a.union(s) } else { a.subtract(s) }
                }
                Some(a)
            }
            _ => None,
        };
    }
    acc
}

/// A zone written for one player only (`rank 11` in `zone goal = rank 11 for red, ...`): squares
/// as written (no mirror), and a named zone as that player's own.
fn zone_plain(cx: &mut Cx, e: &ast::ZoneExpr, side: Option<Side>) -> Option<SquareSet> {
    let pick = |cx: &mut Cx, t: &ast::ZoneTerm| -> Option<SquareSet> {
        let by = term_by_side(cx, t)?;
        Some(match t {
            ast::ZoneTerm::Ref(_) => by[side.unwrap_or(Side::FIRST)].clone(),
            _ => by.0[0].clone(),
        })
    };
    let mut acc = pick(cx, &e.first);
    for (union, t) in &e.rest {
        let s = pick(cx, t);
        acc = match (acc, s) {
            (Some(mut a), Some(s)) => {
                if *union {
                    a.union(&s)
                } else {
                    a.subtract(&s)
                }
                Some(a)
            }
            _ => None,
        };
    }
    acc
}

fn term_by_side(cx: &mut Cx, t: &ast::ZoneTerm) -> Option<BySide<SquareSet>> {
    if let ast::ZoneTerm::Ref(id) = t {
        cx.used.insert(format!("zone {}", id.name));
        return match cx.zones.get(&id.name) {
            Some((z, _)) => Some(z.clone()),
            // Defined, but its definition has an error that is already reported.
            None if cx.broken_zones.contains(&id.name) => None,
            None => {
                cx.unknown_zone(id);
                None
            }
        };
    }
    let first = term(cx, t)?;
    seated(cx, first, t.span())
}

/// Squares written from the first player's seat, as each side in play sees them (the second
/// player's mirror image in a game of two; each seat's turn of the board with more). A square
/// that a seat's turn carries off the board is reported at `span`.
pub(super) fn seated(cx: &mut Cx, first: SquareSet, span: Span) -> Option<BySide<SquareSet>> {
    let board = cx.board.as_ref()?;
    let mut by = Vec::new();
    for (i, &seat) in cx.seats.iter().enumerate() {
        if seat == 0 {
            by.push(first.clone());
            continue;
        }
        let mut set = SquareSet::new(board.squares());
        for s in first.iter() {
            match board.seat_square(cx.seating, seat, s) {
                Some(x) => set.insert(x),
                None => {
                    let who = cx.player_names.get(i).cloned().unwrap_or_default();
                    let d = Diagnostic::error(
                        codes::CONTRADICTION,
                        span,
                        format!(
                            "square {} has no counterpart for `{who}`: `seated by {}` turns it off the board",
                            board.name(s),
                            cx.seating.as_str()
                        ),
                    )
                    .label(format!("{} has no turn for `{who}`", board.name(s)))
                    .help(
                        "write the zone `for both` if it is the same squares for every player, or give a board the turn maps onto itself",
                    );
                    cx.diags.push(d);
                    return None;
                }
            }
        }
        by.push(set);
    }
    Some(BySide(by))
}

fn term(cx: &mut Cx, t: &ast::ZoneTerm) -> Option<SquareSet> {
    if let ast::ZoneTerm::Ref(id) = t {
        // Used even when it cannot be evaluated (no board), so that no "never used" follows.
        cx.used.insert(format!("zone {}", id.name));
    }
    let board = cx.board.clone()?;
    let n = board.squares();
    let mut s = SquareSet::new(n);
    match t {
        ast::ZoneTerm::All(_) => s = SquareSet::full(n),
        ast::ZoneTerm::Ranks(a, b, span) | ast::ZoneTerm::Files(a, b, span) => {
            let rank = matches!(t, ast::ZoneTerm::Ranks(..));
            let names = if rank { &board.rank_names } else { &board.file_names };
            let (Some(x), Some(y)) = (coord_index(names, a), coord_index(names, b)) else {
                let what = if rank { "rank" } else { "file" };
                let bad = if coord_index(names, a).is_none() { a } else { b };
                let d = Diagnostic::error(codes::UNKNOWN_NAME, *span, format!("this board has no {what} `{bad}`"))
                    .help(format!("{what}s are named {}", names.join(" ")));
                cx.diags.push(d);
                return None;
            };
            for sq in 0..n {
                let c = if rank { board.rank(sq) } else { board.file(sq) };
                if c >= x.min(y) && c <= x.max(y) {
                    s.insert(sq);
                }
            }
        }
        ast::ZoneTerm::Rect(a, b, span) => {
            let (Some(x), Some(y)) = (board.parse_square(a), board.parse_square(b)) else {
                bad_square(cx, if board.parse_square(a).is_none() { a } else { b }, *span, &board);
                return None;
            };
            let (f0, f1) = (board.file(x).min(board.file(y)), board.file(x).max(board.file(y)));
            let (r0, r1) = (board.rank(x).min(board.rank(y)), board.rank(x).max(board.rank(y)));
            for sq in 0..n {
                if (f0..=f1).contains(&board.file(sq)) && (r0..=r1).contains(&board.rank(sq)) {
                    s.insert(sq);
                }
            }
        }
        ast::ZoneTerm::Square(a, span) => match board.parse_square(a) {
            Some(x) => s.insert(x),
            None => {
                bad_square(cx, a, *span, &board);
                return None;
            }
        },
        ast::ZoneTerm::List(v, span) => {
            for a in v {
                match board.parse_square(a) {
                    Some(x) => s.insert(x),
                    None => {
                        bad_square(cx, a, *span, &board);
                        return None;
                    }
                }
            }
        }
        // Named zones are read by `term_by_side`, which never calls this for them.
        ast::ZoneTerm::Ref(_) => return None,
        ast::ZoneTerm::Where(rels, _) => {
            let mut resolved = Vec::new();
            for (left, cmp, right) in rels {
                resolved.push((lin(cx, left)?, *cmp, lin(cx, right)?));
            }
            for sq in 0..n {
                let (f, rk) = (board.file(sq) as i64 + 1, board.rank(sq) as i64 + 1);
                let holds = resolved.iter().all(|(l, cmp, r)| {
                    let (a, b) = (l.0 * f + l.1 * rk + l.2, r.0 * f + r.1 * rk + r.2);
                    match cmp {
                        ast::LinCmp::Le => a <= b,
                        ast::LinCmp::Ge => a >= b,
                        ast::LinCmp::Lt => a < b,
                        ast::LinCmp::Gt => a > b,
                        ast::LinCmp::Eq => a == b,
                    }
                });
                if holds {
                    s.insert(sq);
                }
            }
        }
    }
    // Cells left out of the board belong to no zone.
    s.subtract(&board.holes);
    Some(s)
}

/// A sum of `file`, `rank` and numbers as (how many files, how many ranks, the constant).
fn lin(cx: &mut Cx, l: &ast::Lin) -> Option<(i64, i64, i64)> {
    let mut out = (0, 0, 0);
    for (plus, t) in &l.terms {
        let sign = if *plus { 1 } else { -1 };
        match t {
            ast::LinTerm::File => out.0 += sign,
            ast::LinTerm::Rank => out.1 += sign,
            ast::LinTerm::Count(c) => out.2 += sign * cx.count(c, "a number in a zone's comparison", -1000, 1000)?,
        }
    }
    Some(out)
}

pub(super) fn resolve_zones(cx: &mut Cx, items: &[ast::Item]) {
    for it in items {
        if let ast::Item::Zone(z) = it {
            if reads_as_square(&z.name.name) {
                // Every use would be read as a square (`from a1` is the square a1), so the zone
                // could never be named.
                let d = Diagnostic::error(
                    codes::CONTRADICTION,
                    z.name.span,
                    format!("a zone may not be named `{}`: the name reads as a square", z.name.name),
                )
                .label("reads as a square")
                .help("choose a name that is not letters followed by digits, like `second_rank` or `corner_a1`");
                cx.diags.push(d);
                cx.used.insert(format!("zone {}", z.name.name));
                cx.broken_zones.insert(z.name.name.clone());
            }
            // Zones may refer to zones defined before them.
            let value = match &z.per_player {
                None if z.both => {
                    let n = cx.player_names.len().max(2);
                    zone_plain(cx, &z.expr, None).map(|s| BySide(vec![s; n]))
                }
                None => zone_by_side(cx, &z.expr),
                Some((first_player, second_expr, second_player)) => {
                    let sides = [first_player, second_player].map(|p| (p, cx.player_names.iter().position(|n| *n == p.name)));
                    let a = zone_plain(cx, &z.expr, sides[0].1.map(|i| Side(i as u8)));
                    let b = zone_plain(cx, second_expr, sides[1].1.map(|i| Side(i as u8)));
                    for (p, found) in sides {
                        // Without players (no `game`, or one that could not be read) that is reported already.
                        if found.is_none() && !cx.player_names.is_empty() {
                            let names = cx.player_names.clone();
                            cx.unknown(&p.name, p.span, "player", names.iter().map(|s| s.as_str()));
                        }
                    }
                    match (a, b, sides[0].1, sides[1].1) {
                        _ if cx.player_names.len() > 2 => {
                            let d = Diagnostic::error(
                                codes::CONTRADICTION,
                                first_player.span,
                                format!(
                                    "zone `{}` is given per player, which only a game of two players can do",
                                    z.name.name
                                ),
                            )
                            .label("one part per player")
                            .help(
                                "with more players write the zone from the first player's seat: each other side's is its seat's turn of it",
                            );
                            cx.diags.push(d);
                            None
                        }
                        (Some(a), Some(b), Some(i), Some(j)) if i != j => {
                            let mut by = BySide(vec![a.clone(), b.clone()]);
                            if i == 1 {
                                by = BySide(vec![b, a]);
                            }
                            Some(by)
                        }
                        (_, _, Some(i), Some(j)) if i == j => {
                            let other = cx.player_names.get(1 - i).cloned().unwrap_or_default();
                            let d = Diagnostic::error(
                                codes::DUPLICATE,
                                second_player.span,
                                format!(
                                    "both parts of zone `{}` are for `{}`, and none is for `{other}`",
                                    z.name.name, second_player.name
                                ),
                            )
                            .label("given again here")
                            .with(first_player.span, "first given here")
                            .help(format!(
                                "give one part for each player: `... for {}, ... for {other}`",
                                second_player.name
                            ));
                            cx.diags.push(d);
                            None
                        }
                        _ => None,
                    }
                }
            };
            match value {
                Some(set) => {
                    if set[Side::FIRST].is_empty() && set[Side::SECOND].is_empty() {
                        cx.diags.push(
                            Diagnostic::warning(codes::REDUNDANT, z.expr.span, format!("zone `{}` has no squares", z.name.name))
                                .label("empty"),
                        );
                    }
                    cx.zones.insert(z.name.name.clone(), (set, z.name.span));
                }
                None => {
                    cx.broken_zones.insert(z.name.name.clone());
                }
            }
        }
    }
}

/// Would the grammar read this name, where a zone is expected, as a square: letters then digits,
/// and nothing after them but a `-` (`a1`, `rank2`, `a1-b`)?
fn reads_as_square(name: &str) -> bool {
    let letters = name.len() - name.trim_start_matches(|c: char| c.is_ascii_alphabetic()).len();
    let rest = &name[letters..];
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    letters > 0 && digits > 0 && !rest[digits..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
}

/// The usual star points of a go board: on the 4th line from each edge (3rd on boards under 13
/// lines), the middle lines when the size is odd; only the centre on boards under 7 lines.
pub fn star_points(width: usize, height: usize) -> Vec<usize> {
    let lines = |n: usize| -> Vec<usize> {
        if n < 7 {
            return if n % 2 == 1 { vec![n / 2] } else { Vec::new() };
        }
        let k = if n >= 13 { 3 } else { 2 };
        let mut v = vec![k, n - 1 - k];
        if n % 2 == 1 && n >= 9 {
            v.insert(1, n / 2);
        }
        v
    };
    let (xs, ys) = (lines(width), lines(height));
    let mut out = Vec::new();
    for &y in &ys {
        for &x in &xs {
            // Under 15 lines, the usual boards mark only the corners and the centre.
            let edge_mid = (x == width / 2) != (y == height / 2);
            if edge_mid && width.min(height) < 15 {
                continue;
            }
            out.push(y * width + x);
        }
    }
    out
}
