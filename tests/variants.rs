//! Variants and widths: a ruleset that extends chess and overrides parts of it; parameters from the
//! command line; the same rules compiled for every bitboard width give the same trees.

use arbiter::check::check_file;
use arbiter::game::{Engine, Game, Width};
use arbiter::notation::{fen, uci};

use crate::common;

use common::{root, rules};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn every_width_counts_the_same_trees() {
    let r = rules("rulesets/chess.rules", &[]);
    for fen in [fen::write(&r, &r.setup), KIWIPETE.to_string()] {
        let counts: Vec<u64> = [Width::Small, Width::Medium, Width::Large, Width::Huge]
            .into_iter()
            .map(|w| {
                Engine::with_width(r.clone(), w)
                    .expect("chess fits every width")
                    .from_fen(&fen)
                    .expect("valid FEN")
                    .perft(3)
            })
            .collect();
        assert_eq!(counts[0], counts[1], "u64 and u128 differ on {fen}");
        assert_eq!(counts[0], counts[2], "u64 and six words differ on {fen}");
        assert_eq!(counts[0], counts[3], "u64 and eleven words differ on {fen}");
    }
}

#[test]
fn a_variant_overrides_the_king_and_loses_castling() {
    let chess = Engine::new(rules("rulesets/chess.rules", &[]));
    let variant = Engine::new(rules("tests/variants/no-castling.rules", &[]));
    assert_eq!(variant.rules().name, "Chess without castling");
    // Kiwipete has two castling moves for white; without the castling clause they are gone.
    let kiwi_no_rights = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1";
    assert_eq!(chess.from_fen(KIWIPETE).expect("FEN").legal_moves().len(), 48);
    assert_eq!(variant.from_fen(kiwi_no_rights).expect("FEN").legal_moves().len(), 46);
    // Castling rights in a FEN are an error when the ruleset has no castling.
    let err = variant.from_fen(KIWIPETE).expect_err("castling rights without castling");
    assert!(err.to_string().contains("no castling"), "{err}");
    // Everything not overridden is inherited.
    assert_eq!(variant.start().perft(3), 8902);
}

#[test]
fn a_parameter_changes_a_rule_from_the_command_line() {
    let line = ["g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8"];
    let play = |params: &[(&str, &str)]| {
        let e = Engine::new(rules("tests/variants/no-castling.rules", params));
        let mut g = Game::new(e.clone(), e.start());
        for m in line {
            let mv = uci::find(g.current(), m).unwrap_or_else(|| panic!("{m} is legal"));
            g.play(mv);
        }
        g.outcome().claimable.into_iter().map(|c| c.0).collect::<Vec<_>>()
    };
    assert!(!play(&[]).contains(&"fifty-move-rule".to_string()));
    assert!(play(&[("claim_moves", "4")]).contains(&"fifty-move-rule".to_string()));
    // A value outside the declared range is refused with a diagnostic.
    let c = check_file(
        &root().join("tests/variants/no-castling.rules"),
        &[("claim_moves".into(), "500".into())],
    );
    assert!(c.rules.is_none());
    assert!(
        c.diagnostics.items.iter().any(|d| d.message.contains("claim_moves")),
        "{:?}",
        c.diagnostics
    );
}

/// Walks every position of a tree and compares the generator with the plain definition of
/// legality (pseudo-legal moves that pass the full test), move by move.
fn shortcuts_agree(engine: &Engine, fen: &str, depth: u32) {
    fn walk(pos: &arbiter::game::Position, depth: u32, line: &mut Vec<String>) {
        let mut fast: Vec<String> = pos.legal_moves().into_iter().map(|m| uci::to_text(pos, m)).collect();
        let mut slow: Vec<String> = pos.legal_moves_reference().into_iter().map(|m| uci::to_text(pos, m)).collect();
        fast.sort();
        slow.sort();
        assert_eq!(
            fast,
            slow,
            "generator and definition differ at {} after {}",
            pos.fen(),
            line.join(" ")
        );
        // Perft counts the last ply without listing it (whole target sets at a time).
        assert_eq!(pos.perft(1), fast.len() as u64, "counting and listing differ at {}", pos.fen());
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            next.play_unchecked(m);
            line.push(uci::to_text(pos, m));
            walk(&next, depth - 1, line);
            line.pop();
        }
    }
    walk(&engine.from_fen(fen).expect("valid FEN"), depth, &mut Vec::new());
}

#[test]
fn generator_shortcuts_agree_with_the_definition_of_legality() {
    let chess = Engine::new(rules("rulesets/chess.rules", &[]));
    shortcuts_agree(&chess, KIWIPETE, 2);
    shortcuts_agree(&chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3);
    let xiangqi = Engine::new(rules("rulesets/xiangqi.rules", &[]));
    shortcuts_agree(&xiangqi, &xiangqi.start().fen(), 3);
    // Cannon lines with zero, one and two screens, horse legs, facing generals.
    shortcuts_agree(&xiangqi, "3k5/4a4/4c4/9/4N4/9/4R4/2n1C4/4A4/4K4 w - - 0 1", 2);
    shortcuts_agree(&xiangqi, "4k4/9/9/9/2n6/9/9/3N5/4C4/3K5 b - - 0 1", 2);
    // Pawns taken set-wise beside pinned ones, promotions by push and by capture, checks.
    shortcuts_agree(&chess, "r3k2r/1P4P1/8/3pP3/4K3/8/p1p3p1/R6R w kq d6 0 1", 2);
    shortcuts_agree(&chess, "4k3/8/8/q1PPK3/8/8/3p4/4R3 b - - 0 1", 3);
    for (ruleset, fen) in [
        ("rulesets/breakthrough.rules", None),
        ("tests/variants/optional-promotion.rules", None),
        (
            "rulesets/crazyhouse.rules",
            Some("r1b1k2r/ppPp1ppp/2n5/4P3/8/8/PPP2pPP/RNB1K2R[QNbp] w KQkq - 0 9"),
        ),
    ] {
        let e = Engine::new(rules(ruleset, &[]));
        let fen = fen.map_or_else(|| e.start().fen(), str::to_string);
        shortcuts_agree(&e, &fen, 2);
    }
}

/// Walks a tree to `depth`, and at every position asks of every pseudo-legal move whether the
/// position after it reads back: the FEN reader rules on a position by its own test of royals
/// (the side that just moved may have none attacked or facing), so where only royals make a move
/// illegal, a move is legal exactly when it does. Returns how many moves `counted` picks out were
/// refused and allowed.
fn legal_exactly_when_it_reads_back(e: &Engine, depth: u32, counted: fn(arbiter::game::Move) -> bool) -> [usize; 2] {
    fn walk(e: &Engine, pos: &arbiter::game::Position, depth: u32, counted: fn(arbiter::game::Move) -> bool, seen: &mut [usize; 2]) {
        let legal = pos.legal_moves();
        for m in pos.pseudo_moves() {
            let mut next = pos.clone();
            next.play_unchecked(m);
            let reads = e.from_fen(&next.fen());
            assert_eq!(
                legal.contains(&m),
                reads.is_ok(),
                "{} at {}: {:?}",
                uci::to_text(pos, m),
                pos.fen(),
                reads.err().map(|e| e.to_string())
            );
            if counted(m) {
                seen[legal.contains(&m) as usize] += 1;
            }
        }
        if depth == 0 {
            return;
        }
        for m in legal {
            let mut next = pos.clone();
            next.play_unchecked(m);
            walk(e, &next, depth - 1, counted, seen);
        }
    }
    let mut seen = [0; 2];
    walk(e, &e.start(), depth, counted, &mut seen);
    seen
}

/// A royal placed must be safe where it lands, like one that moves: never where an enemy piece
/// attacks it, never facing the other side's royal. (The generator let a king be placed anywhere,
/// so `play` wrote positions the FEN reader refused: found by the long fuzz run on Seirawan chess
/// with a stray `place`.)
#[test]
fn a_royal_placed_must_be_safe_where_it_lands() {
    let e = Engine::new(rules("tests/variants/royal-placed.rules", &[]));
    let placed = legal_exactly_when_it_reads_back(&e, 3, |m| matches!(m.kind, arbiter::game::MoveKind::Place(_)));
    // Both kinds of placement were met, many times.
    assert!(placed[0] > 100 && placed[1] > 100, "refused and allowed placements: {placed:?}");
    shortcuts_agree(&e, &e.start().fen(), 3);
    // The ruling names what forbids it.
    let start = e.start();
    let code = |text: &str| match start.explain(text) {
        arbiter::game::Ruling::Illegal(i) => i.code.to_string(),
        arbiter::game::Ruling::Legal { message, .. } => format!("legal: {message}"),
    };
    assert_eq!(code("a3"), "royal-attacked", "beside the black king");
    assert_eq!(code("a2"), "royals-facing", "on the black king's file, nothing between");
    assert_eq!(code("c3"), "legal: white places a king on c3");
}

/// A royal that leaves a copy as it moves stands on both squares after: the one it left must be
/// safe too. (The generator tested only the square it went to.)
#[test]
fn a_royal_that_leaves_a_copy_must_leave_it_safe() {
    let e = Engine::new(rules("tests/variants/royal-clone.rules", &[]));
    let steps = legal_exactly_when_it_reads_back(&e, 3, |m| m.from != m.to);
    assert!(steps[0] > 100 && steps[1] > 100, "refused and allowed moves: {steps:?}");
    shortcuts_agree(&e, &e.start().fen(), 3);
    // In check, a king that leaves a copy cannot step out of it: the copy stays in check.
    let checked = e.from_fen("4k/1r3/5/5/1K3 w - - 0 1").expect("valid");
    assert!(checked.legal_moves().is_empty(), "{:?}", checked.legal_moves());
    match checked.explain("b1c1") {
        arbiter::game::Ruling::Illegal(i) => {
            assert_eq!(i.code, "royal-attacked", "{}", i.message);
            assert_eq!(i.message, "the king on b1 would be attacked by the rook on b4");
        }
        r => panic!("{r:?}"),
    }
    let quiet = e.from_fen("4k/2r2/5/5/1K3 w - - 0 1").expect("valid");
    let texts: Vec<String> = quiet.legal_moves().into_iter().map(|m| uci::to_text(&quiet, m)).collect();
    assert_eq!(texts, ["b1a1", "b1a2", "b1b2"], "not onto the rook's file");
}

/// A turn's later part may expose a royal too — a king placed where it is attacked, a piece
/// removed from between facing kings — and the whole turn is then not legal, though its move is.
/// Every legal turn leaves a position the FEN reader accepts (its own test of royals), and the
/// turns refused are among those of the same rules without the `forbid`. The ruling says which
/// royal and why. (The generator judged the move alone, and `play` wrote positions the reader
/// refused.)
#[test]
fn a_later_part_may_not_expose_a_royal() {
    fn walk(e: &Engine, free: &Engine, pos: &arbiter::game::Position, depth: u32, refused: &mut usize) {
        let legal = pos.legal_moves();
        for &m in &legal {
            let mut next = pos.clone();
            next.play_unchecked(m);
            if let Err(err) = e.from_fen(&next.fen()) {
                panic!("{} at {} wrote {}: {err}", uci::to_text(pos, m), pos.fen(), next.fen());
            }
        }
        let unforbidden = free.from_fen(&pos.fen()).expect("a position of the forbidding rules").legal_moves();
        assert!(legal.iter().all(|m| unforbidden.contains(m)), "at {}", pos.fen());
        *refused += unforbidden.iter().filter(|m| m.part(0) != 0 && !legal.contains(m)).count();
        if depth == 0 {
            return;
        }
        for m in legal {
            let mut next = pos.clone();
            next.play_unchecked(m);
            walk(e, free, &next, depth - 1, refused);
        }
    }
    for ruleset in ["tests/variants/royal-part.rules", "tests/variants/facing-remove.rules"] {
        let e = Engine::new(rules(ruleset, &[]));
        let text = std::fs::read_to_string(root().join(ruleset)).expect("readable");
        let without: String = text
            .lines()
            .filter(|l| !l.starts_with("forbid"))
            .map(|l| format!("{l}\n"))
            .collect();
        let free = Engine::new(
            arbiter::check::check_source("free.rules", &without, None, &[])
                .rules
                .expect("checks"),
        );
        let mut refused = 0;
        walk(&e, &free, &e.start(), 2, &mut refused);
        assert!(refused > 20, "{ruleset}: {refused} turns refused for their later part");
    }
    let ruling = |ruleset: &str, text: &str| match Engine::new(rules(ruleset, &[])).start().explain(text) {
        arbiter::game::Ruling::Illegal(i) => format!("{}: {}", i.code, i.message),
        arbiter::game::Ruling::Legal { message, .. } => format!("legal: {message}"),
    };
    assert_eq!(
        ruling("tests/variants/royal-part.rules", "b1b2,b2b3"),
        "royal-attacked: the king on b3 would be attacked by the king on a4 (`then place King on empty, along any from where it landed`)"
    );
    assert_eq!(
        ruling("tests/variants/facing-remove.rules", "b2c1,c1d3"),
        "royals-facing: the king on d1 would face the king on d4 with nothing between them (`then may remove enemy`)"
    );
    assert!(ruling("tests/variants/royal-part.rules", "b1b2,b2c3").starts_with("legal"));
}

/// A turn whose move is a placement is explained like any other: every legal turn of the first
/// two plies is ruled legal, as itself, and described. (Describing the placement read the piece on
/// its unused origin and panicked: found by the long fuzz run.)
#[test]
fn a_turn_that_begins_with_a_placement_is_explained() {
    let e = Engine::new(rules("tests/variants/place-then-shoot.rules", &[]));
    let start = e.start();
    match start.explain("a1,a1b2") {
        arbiter::game::Ruling::Legal { message, .. } => {
            assert_eq!(message, "white places a stone on a1, then the arrow goes to b2")
        }
        r => panic!("a legal turn was ruled {r:?}"),
    }
    let mut positions = vec![start.clone()];
    for m in start.legal_moves() {
        let mut next = start.clone();
        next.play_unchecked(m);
        positions.push(next);
    }
    let mut explained = 0;
    for pos in &positions {
        for m in pos.legal_moves() {
            let text = uci::to_text(pos, m);
            match pos.explain(&text) {
                arbiter::game::Ruling::Legal { mv, message, .. } => {
                    assert_eq!(mv, m, "{text} at {}", pos.fen());
                    assert!(message.contains(" places a stone on "), "{text}: {message}");
                }
                r => panic!("{text} at {} was ruled {r:?}", pos.fen()),
            }
            explained += 1;
        }
    }
    assert!(explained > 1000, "{explained} turns explained");
}

/// A pass obeys every `forbid` like any other move: a player in check may not pass, and the pass
/// is back once the check is gone.
#[test]
fn a_pass_may_not_leave_the_own_royal_attacked() {
    let e = Engine::new(rules("tests/variants/chess-with-pass.rules", &[]));
    let texts = |pos: &arbiter::game::Position| -> Vec<String> { pos.legal_moves().into_iter().map(|m| uci::to_text(pos, m)).collect() };
    // Not in check: the pass is a move.
    let quiet = e.from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").expect("valid");
    assert!(texts(&quiet).contains(&"pass".to_string()));
    // In check from the rook: the pass is not offered, not counted and not ruled legal.
    let checked = e.from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1").expect("valid");
    assert!(!texts(&checked).contains(&"pass".to_string()), "{:?}", texts(&checked));
    assert_eq!(checked.perft(1), checked.legal_moves().len() as u64);
    match checked.explain("pass") {
        arbiter::game::Ruling::Illegal(i) => assert_eq!(i.code, "royal-attacked", "{}", i.message),
        r => panic!("a pass in check was ruled {r:?}"),
    }
    // The generator and the plain definition agree, passes included.
    shortcuts_agree(&e, "4k3/8/8/8/8/8/8/4K2r w - - 0 1", 2);
    shortcuts_agree(&e, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", 2);
}

/// `from ZONE` binds a slide's and a hop's attacks as it binds their moves: a piece standing
/// outside its zone attacks nothing along those lines and pins nothing. (Each piece reaches the
/// squares outside its zone by a move from inside it.)
#[test]
fn slides_and_hops_attack_only_from_their_zone() {
    let e = Engine::new(rules("tests/variants/zoned-lines.rules", &[]));
    let at = |fen: &str| e.from_fen(fen).unwrap_or_else(|err| panic!("{fen}: {err}"));
    let moves = |fen: &str| -> Vec<String> {
        let pos = at(fen);
        pos.legal_moves().into_iter().map(|m| uci::to_text(&pos, m)).collect()
    };
    // Black's bishop slides only from its corner (a8): on a8 it gives check along the diagonal,
    // on b7 it attacks nothing, and the king may step onto its diagonal.
    assert!(at("b3k3/8/8/3K4/8/8/8/8 w - - 0 1").in_check());
    assert!(!at("4k3/1b6/8/3K4/8/8/8/8 w - - 0 1").in_check());
    assert!(moves("4k3/1b6/8/8/4K3/8/8/8 w - - 0 1").contains(&"e4d5".to_string()));
    assert!(!moves("b3k3/8/8/8/4K3/8/8/8 w - - 0 1").contains(&"e4d5".to_string()));
    // Black's rook slides only from the a-file: from b1 it pins nothing; from a1 it pins the guard.
    assert!(moves("4k3/8/8/8/8/8/8/1rG1K3 w - - 0 1").contains(&"c1c2".to_string()));
    assert!(!moves("4k3/8/8/8/8/8/8/r1G1K3 w - - 0 1").contains(&"c1c2".to_string()));
    // Black's cannon hops only from the a-file: from d7 over a screen it attacks nothing.
    assert!(!at("4k3/3c4/8/8/3G4/8/8/3K4 w - - 0 1").in_check());
    assert!(at("4k3/c7/8/8/G7/8/8/K7 w - - 0 1").in_check());
    assert!(moves("4k3/3c4/8/8/3G4/8/8/2K5 w - - 0 1").contains(&"c1d1".to_string()));
    // The generator's shortcuts (pins, quiet moves) agree with the plain definition.
    for fen in [
        "4k3/1b6/8/8/4K3/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/1rG1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/r1G1K3 w - - 0 1",
        "4k3/3c4/8/8/3G4/8/8/2K5 w - - 0 1",
        "b3k3/2P5/8/8/6K1/8/8/1R6 b - - 0 1",
    ] {
        shortcuts_agree(&e, fen, 2);
    }
}

/// A castling piece stops short of its partner: with the partner as near as the distance or
/// nearer, there is no castling move (the piece would land on the partner or pass it).
#[test]
fn castling_never_lands_on_or_past_the_partner() {
    let chess = Engine::new(rules("rulesets/chess.rules", &[]));
    let castles = |fen: &str| -> Vec<String> {
        let pos = chess.from_fen(fen).expect("valid");
        pos.legal_moves()
            .into_iter()
            .filter(|m| matches!(m.kind, arbiter::game::MoveKind::Castle(_)))
            .map(|m| uci::to_text(&pos, m))
            .collect()
    };
    assert_eq!(castles("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), vec!["e1g1"]);
    // The rook two squares away: the king would land on it.
    assert!(castles("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1").is_empty());
}

/// A `direction` item may name directions as well as offsets, combined with `|` as the manual says.
#[test]
fn a_direction_combines_names_and_offsets() {
    let text = r#"
game "Directions" { players white "w", black "b" }
board 8 x 8 squares { files a..h  ranks 1..8 }
direction wazir = orthogonal
direction royal = wazir | diagonal | (2,0) | (-2,0)
piece King "K" royal { step royal }
setup "4k3/8/8/8/3K4/8/8/8 w - - 0 1"
"#;
    let c = arbiter::check::check_source("directions.rules", text, None, &[]);
    let e = Engine::new(c.rules.unwrap_or_else(|| panic!("{:?}", c.diagnostics)));
    // Eight neighbours and two squares two files away.
    assert_eq!(e.start().legal_moves().len(), 10);
}
