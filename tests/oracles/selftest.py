"""Checks of oracle.py's mappings: geometry probes, hand-made positions, known counts, and the
oracles of each game against one another along seeded random games. `oracle.py selftest`."""

import random
import re
import sys
import time

from engines import (
    FILES,
    GAMES,
    OracleError,
    OsCrazyhouse,
    Pydraughts,
    draughts_square,
    engine,
    parse_sq,
    perft,
    play_line,
    russian_square,
    sq,
    turkish_square,
)

results = {"passed": 0, "failed": 0}


def check(name, got, want):
    if got == want:
        results["passed"] += 1
        print(f"ok    {name}")
    else:
        results["failed"] += 1
        print(f"FAIL  {name}\n        got:  {got}\n        want: {want}")


def status_after(game, moves, oracle=None):
    eng = engine(game, oracle)
    node = play_line(eng, eng.root(), moves.split())
    return eng.status(node)


def moves_after(game, moves, oracle=None, fen=None):
    eng = engine(game, oracle)
    node = play_line(eng, eng.root(fen), moves.split())
    return sorted(n for n, _ in eng.legal(node))


def perft_list(eng, node, depth):
    """perft 1..depth in one walk of the tree (a finished game has no children)."""
    counts = [0] * depth

    def walk(node, d):
        moves = eng.legal(node)
        counts[d] += len(moves)
        if d + 1 < depth:
            for _, m in moves:
                walk(eng.apply(node, m), d + 1)

    walk(node, 0)
    return counts


# --------------------------------------------------------------------------------------------
# draughts: pydraughts' square numbers onto Arbiter's board


def diag(name, df, dr):
    f, r = parse_sq(name)
    f, r = f + df, r + dr
    return sq(f, r) if 0 <= f < 8 and 1 <= r <= 8 else None


def draughts_number(name):
    return next(n for n in range(1, 33) if draughts_square(n) == name)


def draughts_geometry():
    names = [draughts_square(n) for n in range(1, 33)]
    dark = sorted(sq(f, r) for f in range(8) for r in range(1, 9) if (f + r - 1) % 2 == 0)
    check("draughts: the 32 numbers map one to one onto the dark squares (a1 dark)", sorted(names), dark)
    eng = Pydraughts()
    bad = []
    for n in range(1, 33):
        here = draughts_square(n)
        _, rank = parse_sq(here)
        # A far piece of the other side, out of reach, keeps the game going.
        far_b = next(m for m in range(1, 33) if abs(parse_sq(draughts_square(m))[1] - rank) >= 3)
        cases = [
            # (FEN, side to move's piece, expected step directions)
            (f"B:W{far_b}:BK{n}", [(1, 1), (-1, 1), (1, -1), (-1, -1)]),  # first player's king
            (f"B:W{far_b}:B{n}", [(1, 1), (-1, 1)]) if rank < 8 else None,  # first player's man: up
            (f"W:W{n}:B{far_b}", [(1, -1), (-1, -1)]) if rank > 1 else None,  # second player's man: down
        ]
        for case in cases:
            if case is None:
                continue
            fen, dirs = case
            board = eng.root(fen)
            got = sorted(m for m, _ in eng.legal(board) if m.startswith(here))
            want = sorted(here + t for t in (diag(here, *d) for d in dirs) if t)
            if got != want:
                bad.append((fen, got, want))
    check("draughts: every square's steps (king, men of both sides) are the diagonal neighbours", bad, [])

    def fen(black, white, to_move="B"):
        parts = lambda xs: ",".join(("K" if x[0] == "K" else "") + str(draughts_number(x.lstrip("K"))) for x in xs)
        return f"{to_move}:W{parts(white)}:B{parts(black)}"

    check("draughts: start moves", moves_after("draughts", ""), "a3b4 c3b4 c3d4 e3d4 e3f4 g3f4 g3h4".split())
    b = eng.root(fen(["c3"], ["d4", "f6", "a7"]))
    check("draughts: a double jump is one move listing each landing", sorted(m for m, _ in eng.legal(b)), ["c3e5g7"])
    b = eng.root(fen(["d6", "a1"], ["e7", "g7"]))
    check("draughts: a man crowned by a jump stops there (no f8h6)", sorted(m for m, _ in eng.legal(b)), ["d6f8"])
    b = eng.root(fen(["Ke5", "a1"], ["d4", "d2", "h8"]))
    check("draughts: a king jumps backwards, twice", sorted(m for m, _ in eng.legal(b)), ["e5c3e1"])
    b = eng.root(fen(["c3", "a1"], ["b4", "d4", "h8"]))
    check("draughts: capture is compulsory (either capture, no step)", sorted(m for m, _ in eng.legal(b)), ["c3a5", "c3e5"])
    b = eng.root(fen(["a1"], ["b2", "c3"]))
    check("draughts: no legal move loses", eng.status(b), "win:second")
    b = eng.root(fen(["a1", "c1"], [], "W"))
    check("draughts: no pieces loses", eng.status(b), "win:first")


# --------------------------------------------------------------------------------------------
# hex: open_spiel's cells against Arbiter's adjacency


def hex_adjacent(a, b):
    (f1, r1), (f2, r2) = a, b
    return (f2 - f1, r2 - r1) in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def hex_probe(explicit_game, first_chain, second_chain, probe, probe_player):
    """Plays first_chain for player 0 and second_chain for player 1 alternately (player 0 first),
    then probe for probe_player; returns the explicit-representation letter on the probe cell."""
    n = 11
    state = explicit_game.new_initial_state()
    seq = []
    for i in range(max(len(first_chain), len(second_chain))):
        if i < len(first_chain):
            seq.append(first_chain[i])
        if i < len(second_chain):
            seq.append(second_chain[i])
    for f, r in seq:
        state.apply_action((r - 1) * n + f)
    assert state.current_player() == probe_player, (seq, probe)
    state.apply_action((probe[1] - 1) * n + probe[0])
    rows = [line.split() for line in str(state).strip("\n").split("\n")]
    return rows[probe[1] - 1][probe[0]]


def hex_geometry():
    import pyspiel

    g = pyspiel.load_game("hex", {"string_rep": "explicit"})
    n = 11
    cells = [(f, r) for r in range(1, n + 1) for f in range(n)]
    # (a) player 0 (first) chain up file f from rank 1 to u = (f, r), then a stone at v on rank r + 1:
    # v is joined to rank 1 ('y', or 'X' on rank 11) exactly when it touches u.
    bad = []
    for f in range(n):
        for r in range(1, n):
            chain = [(f, k) for k in range(1, r + 1)]
            for vf in range(n):
                v = (vf, r + 1)
                busy = set(chain) | {v}
                # player 1's stones: anywhere else, never on file k (so player 1 cannot win)
                other = [c for c in cells if c not in busy and c[0] != n - 1][: len(chain)]
                letter = hex_probe(g, chain, other, v, 0)
                joined = letter in ("y", "X")
                if joined != hex_adjacent(chain[-1], v):
                    bad.append(("first", chain[-1], v, letter))
    check("hex: first player's stones on adjacent ranks touch exactly as Arbiter says", bad, [])
    # (b) player 1 (second) chain along rank r from file a to u = (f, r), then a stone at v on file f + 1.
    bad = []
    for r in range(1, n + 1):
        for f in range(n - 1):
            chain = [(k, r) for k in range(0, f + 1)]
            for vr in range(1, n + 1):
                v = (f + 1, vr)
                busy = set(chain) | {v}
                # player 0's stones: anywhere else, never on rank 11 (so player 0 cannot win)
                other = [c for c in cells if c not in busy and c[1] != n][: len(chain) + 1]
                letter = hex_probe(g, other, chain, v, 1)
                joined = letter in ("p", "O")
                if joined != hex_adjacent(chain[-1], v):
                    bad.append(("second", chain[-1], v, letter))
    check("hex: second player's stones on adjacent files touch exactly as Arbiter says", bad, [])

    def line(first, second):
        seq = []
        for i in range(max(len(first), len(second))):
            seq += first[i : i + 1] + second[i : i + 1]
        return " ".join(seq)

    col_a = [f"a{r}" for r in range(1, 12)]
    filler_k = [f"k{r}" for r in range(1, 11)]
    check("hex: first player joins rank 1 to rank 11 up file a", status_after("hex", line(col_a, filler_k)), "win:first")
    anti = [f"{FILES[10 - i]}{i + 1}" for i in range(11)]  # k1 j2 ... a11: steps (f-1, r+1)
    filler_far = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10"]
    check("hex: first player's k1..a11 diagonal (steps f-1, r+1) wins", status_after("hex", line(anti, filler_far)), "win:first")
    main = [f"{FILES[i]}{i + 1}" for i in range(11)]  # a1 b2 ... k11: steps (f+1, r+1) do not touch
    check("hex: first player's a1..k11 diagonal does not connect", status_after("hex", line(main, filler_far[1:] + ["b1"])), "ongoing")
    row1 = [f"{FILES[i]}1" for i in range(11)]
    first_far = [f"{FILES[i]}11" for i in range(11)]
    check("hex: second player joins file a to file k along rank 1", status_after("hex", line(first_far, row1)), "win:second")
    anti2 = [f"{FILES[i]}{11 - i}" for i in range(11)]  # a11 b10 ... k1: steps (f+1, r-1)
    first_far2 = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "b11", "c11"]
    check("hex: second player's a11..k1 diagonal (steps f+1, r-1) wins", status_after("hex", line(first_far2, anti2)), "win:second")
    check("hex: 121 first moves, none repeated", len(set(moves_after("hex", ""))), 121)


# --------------------------------------------------------------------------------------------
# othello, tic-tac-toe, connect four: hand-made positions


def small_games():
    check("tic-tac-toe: x wins a row", status_after("tic-tac-toe", "a1 a2 b1 b2 c1"), "win:first")
    check("tic-tac-toe: o wins a diagonal", status_after("tic-tac-toe", "a2 a1 c1 b2 a3 c3"), "win:second")
    check("tic-tac-toe: full board draw", status_after("tic-tac-toe", "b2 a1 c3 a3 a2 c2 b1 b3 c1"), "draw")
    check("connect-four: pieces fall (d1, then d2)", moves_after("connect-four", "d1"), "a1 b1 c1 d2 e1 f1 g1".split())
    check("connect-four: four up a file wins", status_after("connect-four", "a1 b1 a2 b2 a3 b3 a4"), "win:first")
    check("connect-four: four along rank 1 wins", status_after("connect-four", "a1 a2 b1 b2 c1 c2 d1"), "win:first")
    check("connect-four: three along rank 1 do not", status_after("connect-four", "a1 a2 b1 b2 c1 c2"), "ongoing")
    check("connect-four: second player's four", status_after("connect-four", "a1 b1 a2 b2 a3 b3 c1 b4"), "win:second")
    check("connect-four: a diagonal of four", status_after("connect-four", "a1 b1 b2 c1 c2 d1 c3 d2 d3 g1 d4"), "win:first")
    check("othello: start moves", moves_after("othello", ""), ["c4", "d3", "e6", "f5"])
    check("othello: white's answers to d3", moves_after("othello", "d3"), ["c3", "c5", "e3"])
    check("othello: black wipes white out in 9 plies", status_after("othello", "d3 c3 b3 d2 e1 d6 d7 e3 f4"), "win:first")
    line = "f5 f4 g3 g4 h3 h4 e3 d2 c3 f2 f3 c5 b5 f6 h5 g2 d3 c6 c7 c2 f1 b2 b3 b4 g5 h1 c1 e6 a2 g6 e1 e2 g7 c4 g1 a5 f7 d1 b6 h2"
    for oracle in ("open_spiel", "fairy-stockfish"):
        # Black (first) has no move after these 40 plies and must pass; white then plays on.
        check(f"othello: a forced pass ({oracle})", moves_after("othello", line, oracle), ["pass"])
        check(f"othello: play goes on after the pass ({oracle})", moves_after("othello", line + " pass", oracle),
              sorted("b1 a3 a4 a6 d6 h6 a7 b7 d7 e7 h7 d8 f8 g8".split()))


# --------------------------------------------------------------------------------------------
# antichess, atomic, three-check: hand-made positions, each played by both oracles


def after(game, fen=None, moves="", oracle=None):
    """(status, sorted legal moves) after moves from fen (or the start)."""
    eng = engine(game, oracle)
    node = play_line(eng, eng.root(fen), moves.split())
    return eng.status(node), sorted(n for n, _ in eng.legal(node))


def chess_variants():
    for oracle in ("fairy-stockfish", "python-chess"):
        def both(name, game, fen, moves, want, pick=lambda r: r):
            check(f"{game}: {name} ({oracle})", pick(after(game, fen, moves, oracle)), want)

        e1 = lambda r: [m for m in r[1] if m.startswith("e1")]
        both("no castling, even where the FEN grants it", "antichess",
             "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "", ["e1d1", "e1f1"], e1)
        both("capturing is compulsory", "antichess", None, "e2e4 d7d5", ("ongoing", ["e4d5"]))
        both("en passant is a capture, so compulsory too", "antichess", "8/8/8/8/1p6/8/P7/8 w - - 0 1", "a2a4",
             ("ongoing", ["b4a3"]))
        both("a pawn promotes to a king too", "antichess", "8/P7/8/8/8/8/8/7p w - - 0 1", "",
             ("ongoing", ["a7a8b", "a7a8k", "a7a8n", "a7a8q", "a7a8r"]))
        both("the king may step next to the other king", "antichess", "8/8/8/8/8/k7/8/2K5 w - - 0 1", "",
             ("ongoing", ["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]))
        both("a side that loses its last piece wins", "antichess", "8/8/8/8/8/1p6/P7/8 w - - 0 1", "a2b3",
             ("win:second", []))
        both("a stalemated side wins", "antichess", "8/8/8/8/8/p7/P7/8 w - - 0 1", "", ("win:first", []))
        both("castling is the king's two-square move", "atomic", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "",
             ["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"], e1)
        both("a capture next to the king explodes it: a win", "atomic", "4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1",
             "d1d7", ("win:first", []))
        both("a king never captures (it would explode)", "atomic", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "",
             ("ongoing", ["e1d1", "e1e2", "e1f1", "e1f2"]))
        both("kings may touch (no check between them)", "atomic", "8/8/8/8/8/k7/8/2K5 w - - 0 1", "",
             ("ongoing", ["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]))
        both("touching kings: neither is in check", "atomic", "8/8/8/8/8/8/1k6/K7 w - - 0 1", "",
             ("ongoing", ["a1a2", "a1b1"]))
        line = "e2e4 e7e5 f1c4 b8c6 c4f7 e8f7 d1h5 g7g6"
        both("two checks given: the game goes on", "three-check", None, line, "ongoing", lambda r: r[0])
        both("the third check wins", "three-check", None, line + " h5f3", ("win:first", []))
        both("FEN 1+3: white has one check to give", "three-check",
             "r1bq1bnr/pppp1kpp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1K1NR b KQ - 1+3 1 4", "g7g6 h5f3", ("win:first", []))
        both("lichess's FEN +2+0 (checks given) reads alike", "three-check",
             "r1bq1bnr/pppp1kpp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1K1NR b KQ - 1 4 +2+0", "g7g6 h5f3", ("win:first", []))
    eng = engine("three-check")
    fen = eng.sf.get_fen("3check", eng.sf.start_fen("3check"), "e2e4 e7e5 f1c4 b8c6 c4f7 e8f7 d1h5".split())
    check("three-check: Fairy-Stockfish's FEN writes the checks still to give (1+3 after two by white)",
          fen, "r1bq1bnr/pppp1kpp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1K1NR b KQ - 1+3 1 4")


# --------------------------------------------------------------------------------------------
# duck chess, isolation, seirawan: what Fairy-Stockfish does, by hand-made positions


def fsf_rules():
    start = after("duck-chess")[1]
    check("duck-chess: 640 first moves, each a move then the duck's square (20 moves x 32 empty squares)",
          (len(start), len({m.split(",")[0] for m in start}), all(m[2:4] == m[5:7] for m in start)), (640, 20, True))
    check("duck-chess: the duck may land on the square just left", "a2a3,a3a2" in start, True)
    st, black = after("duck-chess", None, "a2a3,a3a2")
    check("duck-chess: the duck must move: no answer leaves it on a2, every answer moves it",
          (len(black), [m for m in black if m.endswith("a2")], all("," in m for m in black)), (620, [], True))
    check("duck-chess: nothing passes through or lands on the duck (e7 blocked by a duck on e6)",
          [m for m in after("duck-chess", None, "e2e4,e4e6")[1] if m.startswith("e7")], [])
    kings = lambda fen: sorted({m.split(",")[0] for m in after("duck-chess", fen)[1] if m.startswith("e1")})
    check("duck-chess: no check: castling through an attacked f1, and the king steps onto it",
          kings("4k3/8/8/5r2/8/8/8/4K2R w K - 0 1"), ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"])
    check("duck-chess: castling out of an attack on e1 too",
          kings("4k3/8/8/4r3/8/8/8/4K2R w K - 0 1"), ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"])
    check("duck-chess: capturing the king wins at once", after("duck-chess", "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "e7e8,e8a1"),
          ("win:first", []))
    check("duck-chess: a side with no move (king and pawns walled in by the duck) wins",
          after("duck-chess", "4K3/8/8/8/8/8/pp6/k*6 b - - 0 1"), ("win:second", []))

    st, first = after("isolation")
    check("isolation: 225 first moves = 5 steps x 45 squares to remove (not c1, d8, or the piece's own)",
          (len(first), sorted({m.split(",")[0] for m in first}), all(m[2:4] == m[5:7] for m in first)),
          (225, ["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"], True))
    check("isolation: the start squares c1 and d8 are never removed", [m for m in first if m[-2:] in ("c1", "d8")], [])
    line = "c1b1,b1a1 d8e8,e8f8"
    st, third = after("isolation", None, line)
    check("isolation: c1 and d8 stay unremovable once left", [m for m in third if m[-2:] in ("c1", "d8")], [])
    check("isolation: a piece steps like a king onto empty squares only (a1 removed)",
          sorted({m.split(",")[0] for m in third}), ["b1a2", "b1b2", "b1c1", "b1c2"])
    check("isolation: the square just left may be removed", "b1c1,c1b1" in third, True)
    sf = engine("isolation").sf
    fen = sf.get_fen("isolation", sf.start_fen("isolation"), (line + " b1c1,c1b1").split())
    check("isolation: removed squares are * in the FEN", fen, "4p*/6/6/6/6/6/6/**P3 b - - 3 2")
    check("isolation: a piece never steps onto the other",
          sorted({m.split(",")[0] for m in after("isolation", "6/6/6/6/6/6/2p3/2P3 w - - 0 1")[1]}),
          ["c1b1", "c1b2", "c1d1", "c1d2"])
    check("isolation: the side to move with no step loses",
          after("isolation", "6/6/6/6/6/3p2/***3/*P*3 w - - 0 1"), ("win:second", []))

    st, first = after("seirawan")
    check("seirawan: 28 first moves: a knight's first move may gate H or E onto its square",
          [m for m in first if m.startswith("b1")], ["b1a3", "b1a3e", "b1a3h", "b1c3", "b1c3e", "b1c3h"])
    check("seirawan: pawns never gate", [m for m in first if m.startswith("e2")], ["e2e3", "e2e4"])
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[HEhe] w KQkq - 0 1"
    castles = [m for m in after("seirawan", fen)[1] if m in ("e1g1", "e1g1h", "h1e1h", "e1c1", "e1c1e", "a1e1e")]
    check("seirawan: castling gates onto e1 as e1g1h, onto h1 as h1e1h (rook's square + king's square)",
          castles, ["a1e1e", "e1c1", "e1c1e", "e1g1", "e1g1h", "h1e1h"])
    sf = engine("seirawan").sf
    got = [sf.get_fen("seirawan", fen, [m]).split()[0] for m in ("e1g1h", "h1e1h", "a1e1e")]
    check("seirawan: e1g1h puts the hawk on e1, h1e1h on h1, a1e1e the elephant on a1",
          got, ["r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3HRK1[Eeh]", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RKH[Eeh]",
                "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/E1KR3R[Heh]"])
    check("seirawan: no gating with an empty hand", [m for m in after("seirawan", fen.replace("HEhe", "he"))[1]
                                                     if m[:2] in ("a1", "e1", "h1") and len(m) == 5], [])
    check("seirawan: a piece that moved without gating may not gate later",
          [m for m in after("seirawan", None, "g1f3 g8f6 f3g1 f6g8")[1] if m.startswith("g1")], ["g1f3", "g1h3"])
    check("seirawan: black gates with the same lower-case letters",
          [m for m in after("seirawan", None, "e2e4")[1] if m.startswith("g8")], ["g8f6", "g8f6e", "g8f6h", "g8h6", "g8h6e", "g8h6h"])
    check("seirawan: a pawn promotes to a hawk or an elephant too",
          [m for m in after("seirawan", "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1")[1] if m.startswith("a7")],
          ["a7a8b", "a7a8e", "a7a8h", "a7a8n", "a7a8q", "a7a8r"])


# --------------------------------------------------------------------------------------------
# clobber: open_spiel's board against Fairy-Stockfish's


def clobber_mapping():
    import pyspiel

    state = pyspiel.load_game("clobber", {"rows": 6, "columns": 5}).new_initial_state()
    rows = [line[1:] for line in str(state).strip().split("\n")[:6]]  # its ranks 6..1, as it prints them
    at = lambda name: rows[6 - int(name[1])][FILES.index(name[0])]
    symbol = at(state.action_to_string(0, state.legal_actions()[0])[:2])  # player 0's stones
    first = sorted(sq(f, 7 - (6 - i)) for i, row in enumerate(rows) for f, c in enumerate(row) if c == symbol)
    fsf = engine("clobber")
    fen_rows = fsf.root()[0].split()[0].split("/")  # ranks 6..1
    white = sorted(sq(f, 6 - i) for i, row in enumerate(fen_rows) for f, c in enumerate(row) if c == "P")
    check("clobber: open_spiel's player 0 stones, rank r taken as 7 - r, are Fairy-Stockfish's white stones",
          (state.current_player(), first), (0, white))
    check("clobber: the same 49 first moves", moves_after("clobber", "", "open_spiel"), moves_after("clobber", ""))
    check("clobber: a move takes an orthogonal neighbour of the other colour",
          [m for m in moves_after("clobber", "") if m.startswith("a2") or m.startswith("b1")], ["a2a1", "a2a3", "a2b2", "b1a1", "b1b2", "b1c1"])


# --------------------------------------------------------------------------------------------
# Russian and Turkish draughts: pydraughts' square numbers onto Arbiter's board


def ray(name, df, dr, size=8):
    """The squares from name (excluded) in direction (df, dr) to the edge."""
    f, r = parse_sq(name)
    out = []
    while True:
        f, r = f + df, r + dr
        if not (0 <= f < size and 1 <= r <= size):
            return out
        out.append(sq(f, r))


def variant_geometry(game, square, count, men, kings, start):
    """square maps pydraughts' numbers 1..count one to one onto the playable squares; for every square a
    lone king (flying) reaches exactly its rays, a first player's man the men[0] steps, a second
    player's man the men[1] steps; pydraughts' own algebraic names in its FENs agree."""
    eng = engine(game)
    names = [square(n) for n in range(1, count + 1)]
    if count == 32:
        playable = sorted(sq(f, r) for f in range(8) for r in range(1, 9) if (f + r - 1) % 2 == 0)
        check(f"{game}: the 32 numbers map one to one onto the dark squares (a1 dark)", sorted(names), playable)
    else:
        check(f"{game}: the 64 numbers map one to one onto the board", sorted(names), sorted(sq(f, r) for f in range(8) for r in range(1, 9)))
    bad = []
    for n in range(1, count + 1):
        here = square(n)
        _, rank = parse_sq(here)
        # A far piece of the other side: a corner that no probe's ray or step reaches from here.
        far = next(m for m in range(1, count + 1)
                   if all(square(m) not in ray(here, *d) for d in kings) and abs(parse_sq(square(m))[1] - rank) >= 2
                   and abs(parse_sq(square(m))[0] - parse_sq(here)[0]) >= 2)
        cases = [
            (f"W:WK{n}:B{far}", sorted(here + t for d in kings for t in ray(here, *d))),
            (f"W:W{n}:B{far}", sorted(here + t for d in men[0] for t in ray(here, *d)[:1])) if rank < 8 else None,
            (f"B:W{far}:B{n}", sorted(here + t for d in men[1] for t in ray(here, *d)[:1])) if rank > 1 else None,
        ]
        for case in cases:
            if case is None:
                continue
            fen, want = case
            board = eng.root(fen)
            got = sorted(m for m, _ in eng.legal(board) if m.startswith(here))
            if got != want:
                bad.append((fen, got, want))
    check(f"{game}: every square's moves (flying king, men of both sides) are Arbiter's", bad, [])
    board = eng.root()
    pieces = {}
    for part in board.fen.split(":")[1:]:
        side, squares = part[0], part[1:].split(",")
        pieces[side] = sorted(squares)
    check(f"{game}: pydraughts' start FEN (its algebraic names) has white on ranks {start[0]}, black on {start[1]}",
          (pieces["W"], pieces["B"]),
          (sorted(square(n) for n in range(1, count + 1) if parse_sq(square(n))[1] in start[0]),
           sorted(square(n) for n in range(1, count + 1) if parse_sq(square(n))[1] in start[1])))


def draughts_variants():
    diagonals = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
    orthogonals = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    variant_geometry("russian-draughts", russian_square, 32, ([(1, 1), (-1, 1)], [(1, -1), (-1, -1)]), diagonals,
                     ((1, 2, 3), (6, 7, 8)))
    variant_geometry("turkish-draughts", turkish_square, 64, ([(0, 1), (1, 0), (-1, 0)], [(0, -1), (1, 0), (-1, 0)]),
                     orthogonals, ((2, 3), (6, 7)))
    check("russian-draughts: start moves (white first)", moves_after("russian-draughts", ""),
          "a3b4 c3b4 c3d4 e3d4 e3f4 g3f4 g3h4".split())
    check("turkish-draughts: start moves (white first)", moves_after("turkish-draughts", ""),
          "a3a4 b3b4 c3c4 d3d4 e3e4 f3f4 g3g4 h3h4".split())
    ru = lambda fen: after("russian-draughts", fen)[1]
    tr = lambda fen: after("turkish-draughts", fen)[1]
    check("russian-draughts: a man captures backwards", ru("W:Wd4,a1:Bc3,h8"), ["d4b2"])
    check("russian-draughts: a flying king lands on any empty square beyond, each a move of its own",
          ru("W:WKa1:Bc3,h8"), ["a1d4", "a1e5", "a1f6", "a1g7"])
    check("russian-draughts: ... but only where the capture can go on, if it can somewhere",
          ru("W:WKa1:Bc3,f4,h8"), ["a1e5g3", "a1e5h2"])
    check("russian-draughts: a man crowned mid-capture goes on capturing as a (flying) king",
          ru("W:Wb6:Bc7,f6,a1"), ["b6d8g5", "b6d8h4"])
    check("russian-draughts: any capture may be chosen, not only the longest, but it is played out",
          ru("W:Wc3,h2:Bd4,f6,g3"), ["c3e5g7", "h2f4"])
    check("russian-draughts: captured pieces stay until the move ends (no passing d4 again from b6)",
          ru("W:WKb2:Bd4,e7,c7,e3"), ["b2e5b8", "b2f6d8a5", "b2f6d8b6"])
    check("russian-draughts: no legal move loses", after("russian-draughts", "W:Wa1:Bb2,c3"), ("win:second", []))
    check("turkish-draughts: a man captures forwards and sideways, not backwards",
          tr("W:Wd4:Bd5,c4,e4,d3,h8"), ["d4b4", "d4d6", "d4f4"])
    check("turkish-draughts: the capture taking most pieces is compulsory", tr("W:Wd4,a2:Bd5,d7,a3,h8"), ["d4d6d8"])
    check("turkish-draughts: captured pieces go at once (the king crosses c4 again)",
          tr("W:WKa4:Bc4,e6,d7,c2"), ["a4e4e7c7c1"])
    check("turkish-draughts: a king never turns back 180 degrees within a capture",
          tr("W:WKd4:Bd6,d2"), ["d4d1", "d4d7", "d4d8"])
    check("turkish-draughts: a man reaching the last rank mid-capture goes on as a man (pydraughts)",
          (tr("W:Wb6:Bb7,e8,h1"), tr("W:Wb6:Bb7,c8,e8,h1")), (["b6b8"], ["b6b8d8f8"]))
    check("turkish-draughts: no legal move loses", after("turkish-draughts", "B:Wa1,b2,c2:Ba2"), ("win:first", []))


# --------------------------------------------------------------------------------------------
# y: open_spiel's cells, neighbours and win against an independent check


def y_cells(size):
    return [(f, r) for r in range(1, size + 1) for f in range(size) if f + r <= size]  # 0-based file, 1-based rank


def y_neighbours(cell, size):
    f, r = cell
    out = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1)):
        g, s = f + df, r + dr
        if g >= 0 and s >= 1 and g + s <= size:
            out.append((g, s))
    return out


def y_won(stones, size):
    """Some chain of stones touches file a, rank 1 and the long side (file + rank = size + 1, 1-based)."""
    seen = set()
    for start in stones:
        if start in seen:
            continue
        seen.add(start)
        chain, todo = [start], [start]
        while todo:
            for n in y_neighbours(todo.pop(), size):
                if n in stones and n not in seen:
                    seen.add(n)
                    chain.append(n)
                    todo.append(n)
        if any(f == 0 for f, _ in chain) and any(r == 1 for _, r in chain) and any(f + r == size for f, r in chain):
            return True
    return False


def y_geometry(quick):
    size = 19
    eng = engine("y")
    state = eng.root()
    names = sorted(state.action_to_string(0, a) for a in state.legal_actions())
    check("y: 190 cells, file + rank <= 20, named as open_spiel names them",
          (len(names), names == sorted(n for n, _ in eng.legal(state))),
          (190, True))
    check("y: the cells are those of file + rank <= 20", sorted(n for n, _ in eng.legal(state)),
          sorted(sq(f, r) for f, r in y_cells(size)))

    def line(first, second):
        seq = []
        for i in range(max(len(first), len(second))):
            seq += first[i : i + 1] + second[i : i + 1]
        return " ".join(seq)

    interior = [sq(f, r) for f, r in y_cells(size) if f >= 3 and r >= 4 and f + r <= size - 3]  # touch no side

    def filler(n, chain):
        """n stones for the other player, spread over cells touching no side and off the chain."""
        return [c for c in interior if c not in chain][::3][:n]

    file_a = [f"a{r}" for r in range(1, 20)]
    check("y: first player up file a (corners a1 and a19 count for both their sides) wins at a19, not before",
          (status_after("y", line(file_a[:-1], filler(18, file_a))), status_after("y", line(file_a, filler(18, file_a)))),
          ("ongoing", "win:first"))
    long_side = [sq(i, 19 - i) for i in range(19)]  # a19 b18 ... s1: steps (f+1, r-1)
    check("y: second player along the long side a19..s1 (steps (f+1, r-1), i.e. (f-1, r+1) back) wins",
          status_after("y", line(filler(19, long_side), long_side)), "win:second")
    rank1 = [sq(i, 1) for i in range(19)]
    check("y: first player along rank 1 (steps (f+1, r)) wins", status_after("y", line(rank1, filler(18, rank1))), "win:first")
    main = [sq(i, i + 1) for i in range(10)]  # a1 b2 ... j10: steps (f+1, r+1); j10 is on the long side
    check("y: a1 b2 .. j10 (steps (f+1, r+1), not neighbours) does not connect",
          status_after("y", line(main, filler(10, main))), "ongoing")
    bent = [sq(i, 10 - i) for i in range(10)]  # a10 b9 ... j1: touches file a and rank 1 only
    check("y: a chain touching two sides only does not win", status_after("y", line(bent, filler(10, bent))), "ongoing")
    # Random games on several sizes: open_spiel's status after every move against y_won.
    rng = random.Random(1)
    bad = []
    games = 0
    for size in (3, 4, 5, 6, 7, 9) + (() if quick else (12, 19)):
        e = engine("y", params={"board_size": size})
        for _ in range(30 if quick else 100):
            games += 1
            state = e.root()
            stones = ({}, {})
            player = 0
            while True:
                want = "win:first" if y_won(stones[0], size) else "win:second" if y_won(stones[1], size) else "ongoing"
                if e.status(state) != want:
                    bad.append((size, e.status(state), want))
                    break
                if want != "ongoing":
                    break
                name, action = rng.choice(e.legal(state))
                stones[player][parse_sq(name)] = True
                state = e.apply(state, action)
                player = 1 - player
    check(f"y: open_spiel's status after every move is Arbiter's (neighbours (f±1, r), (f, r±1), (f-1, r+1), "
          f"(f+1, r-1); a chain touching all three sides) ({games} random games)", bad, [])


# --------------------------------------------------------------------------------------------
# lines of action: open_spiel against an independent move generator and connection test


LOA_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]


def loa_moves(board, me):
    """from+to of every legal move: a piece moves exactly as many squares as there are pieces (both
    sides', itself included) on the line it moves along, over own pieces but not enemy ones, onto an
    empty square or an enemy piece."""
    out = []
    for (f, r), piece in board.items():
        if piece != me:
            continue
        for df, dr in LOA_DIRS:
            n = sum(1 for k in range(-7, 8) if board.get((f + k * df, r + k * dr)))
            tf, tr = f + n * df, r + n * dr
            if not (0 <= tf < 8 and 1 <= tr <= 8) or board.get((tf, tr)) == me:
                continue
            if any(board.get((f + k * df, r + k * dr)) not in (None, me) for k in range(1, n)):
                continue
            out.append(sq(f, r) + sq(tf, tr))
    return sorted(out)


def loa_connected(board, me):
    cells = [c for c, p in board.items() if p == me]
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        f, r = todo.pop()
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                c = (f + df, r + dr)
                if board.get(c) == me and c not in seen:
                    seen.add(c)
                    todo.append(c)
    return len(seen) == len(cells)


def loa_status(board, mover, seen, plies):
    """open_spiel's rules: the mover wins if connected, else the other side if it is; then a 1000th ply or
    a board seen before (whoever was to move) draws; the side to move without a move loses."""
    other = "o" if mover == "x" else "x"
    first = lambda side: "win:first" if side == "x" else "win:second"
    won = first(mover) if loa_connected(board, mover) else first(other) if loa_connected(board, other) else None
    if plies >= 1000 or seen:
        return "draw"
    if won:
        return won
    return "ongoing" if loa_moves(board, other) else first(mover)


def lines_of_action(quick):
    start = {}
    for f in range(1, 7):
        start[(f, 1)] = start[(f, 8)] = "x"
    for r in range(2, 8):
        start[(0, r)] = start[(7, r)] = "o"
    check("lines-of-action: open_spiel's start (x on ranks 1 and 8, moving first) has these 36 moves",
          moves_after("lines-of-action", ""), loa_moves(start, "x"))
    first = moves_after("lines-of-action", "")
    check("lines-of-action: b1h1 over five own pieces (six on rank 1), c1a3 captures, b1b3 (two on file b)",
          [m in first for m in ("b1h1", "c1a3", "b1b3", "b1d3")], [True] * 4)
    eng = engine("lines-of-action")
    rng = random.Random(1)
    bad = []
    ends = {}
    count = 0
    for _ in range(15 if quick else 60):
        board, me, state, boards, plies = dict(start), "x", eng.root(), {tuple(sorted(start.items()))}, 0
        while True:
            status = eng.status(state)
            legal = dict(eng.legal(state))
            count += 1
            if status == "ongoing" and sorted(legal) != loa_moves(board, me):
                bad.append((plies, sorted(legal), loa_moves(board, me)))
                break
            if status != "ongoing":
                ends[status] = ends.get(status, 0) + 1
                break
            m = rng.choice(sorted(legal))
            board[parse_sq(m[2:])] = board.pop(parse_sq(m[:2]))
            state, plies = eng.apply(state, legal[m]), plies + 1
            key = tuple(sorted(board.items()))
            want = loa_status(board, me, key in boards, plies)
            boards.add(key)
            me = "o" if me == "x" else "x"
            if eng.status(state) != want:
                bad.append((plies, eng.status(state), want))
                break
    check(f"lines-of-action: open_spiel's moves and status are the independent ones' ({count} positions; "
          f"ends {', '.join(f'{k} {v}' for k, v in sorted(ends.items()))})", bad, [])
    def loa_perft(board, me, depth):
        moves = loa_moves(board, me)
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            child = dict(board)
            child[parse_sq(m[2:])] = child.pop(parse_sq(m[:2]))
            total += loa_perft(child, "o" if me == "x" else "x", depth - 1)
        return total

    depth = 3 if quick else 4
    check(f"lines-of-action: perft {depth} by open_spiel and by the independent generator (the earliest end is at ply 4, a repeated board, still a leaf)",
          perft(eng, eng.root(), depth), loa_perft(start, "x", depth))
    line = "b1b3 a2c2 b3b1 c2a2"
    check("lines-of-action: a board seen before ends the game drawn (here the start, after four plies)",
          (status_after("lines-of-action", line[:-5]), status_after("lines-of-action", line)), ("ongoing", "draw"))
    both = LOA_BOTH_CONNECTED.split()
    check("lines-of-action: a move joining both sides' pieces at once (x captures o's last straggler) wins for the mover",
          (status_after("lines-of-action", " ".join(both[:-1])), status_after("lines-of-action", " ".join(both))),
          ("ongoing", "win:first"))
    import pyspiel

    short = pyspiel.load_game("lines_of_action", {"max_game_length": len(both)})
    state = short.new_initial_state()
    for m in both:
        state.apply_action(next(a for a in state.legal_actions() if eng.name(state, a) == m))
    check("lines-of-action: the last ply of max_game_length (1000 by default) draws, even a winning one",
          (eng.game.get_parameters()["max_game_length"], state.returns()), (1000, [0.0, 0.0]))


# Found in seeded random games: x's 88th move, b4e7, joins x (e7 f8) while capturing all but o's g7.
LOA_BOTH_CONNECTED = """g1a1 a7c7 a1b2 a4c6 f1h3 a2c4 d8f6 c7e7 d1d2 e7e4 c8e6 h5f5 g8c8 h2f4 d2d3 c4a2 d3f1 f5h5
f6h4 a5c3 f8h6 h5g4 b8a7 a6c8 c1f4 c3e1 e6g8 g4h5 e8e5 c8e6 h4e4 e6b6 f4f2 e1b1 e5g7 b6e6 g7g5 h7e4 f2g3 c6d7 g3f4
d7c6 a7b7 b1d1 b7c7 a3a5 b2a3 d1b1 g5h4 h5f5 f4h2 e4c4 f1h1 c6f6 h6g7 c4c6 h4g3 e6h6 h3f5 b1b2 g7g4 f6d4 h1g1 h6h4
h2e2 a5a8 g1g5 b2b3 g8d5 c6b5 f5b5 d4g4 c7b6 a2b1 d5b7 b3e3 e2f2 b1b5 b7a6 h4h3 b6c7 g4h4 f2g2 e3g5 g2f2 h3h5 c7d8
h5e5 g3e3 b5b4 e3g3 b4d4 a3c3 g5d8 c3b4 a8b7 b4c5 h4f4 g3f3 f4h4 a6a7 d4d6 c5c4 d6c5 c4b3 e5g5 f2h4 d8c7 h4h3 c5b4
f3f2 c7f7 h3g4 b4d4 b3a3 b7e7 f2f4 f7g6 f4e5 g6f6 g4h3 f6g6 a7c7 g6f6 h3g4 d4b4 g4f5 g5h6 a3a2 e7g7 f5e6 h6f8 e5f5
f8f5 c7b6 g7h7 a2a1 f6h8 b6d6 f5f4 d6d7 h8g8 e6g8 b4a5 d7e8 f4f3 e8e7 h7g6 a1a3 g6f7 e7e6 f3f5 a3b4 f5e4 g8h8 e4g4
e6d6 g4g5 d6c7 g5h6 h8g7 h6g6 c7d6 a5b5 d6d5 f7d7 d5d7 b5d7 b4a4 d7e6 a4b4 e6e7 g7f8 g6g7 b4e7"""


# --------------------------------------------------------------------------------------------
# tapatan: tapatan.py against a second implementation written apart from it


class TapatanBits:
    """Tapatan once more from its rules (tapatan.py's docstring), sharing no code with tapatan.py:
    point (x, y) is bit 3y + x of a mask per side; lines and steps are worked out from coordinates.
    A node is (white's mask, black's mask, side to move 0/1, placements made, positions so far)."""

    oracle = "bit masks"

    def __init__(self):
        points = [(x, y) for y in range(3) for x in range(3)]
        bit = lambda x, y: 1 << (3 * y + x)
        self.points = [bit(x, y) for x, y in points]
        self.names = {bit(x, y): "abc"[x] + str(y + 1) for x, y in points}
        self.lines = [sum(bit(x, k) for x in range(3)) for k in range(3)] + [sum(bit(k, y) for y in range(3)) for k in range(3)]
        self.lines += [bit(0, 0) | bit(1, 1) | bit(2, 2), bit(0, 2) | bit(1, 1) | bit(2, 0)]
        self.steps = {}
        for x, y in points:
            for u, v in points:
                d = (abs(x - u), abs(y - v))
                if d in ((0, 1), (1, 0)) or (d == (1, 1) and (1, 1) in ((x, y), (u, v))):
                    self.steps.setdefault(bit(x, y), []).append(bit(u, v))

    def root(self, fen=None):
        return (0, 0, 0, 0, ((0, 0, 0),))

    def _moves(self, node):
        men, turn, placed = node[:2], node[2], node[3]
        busy = men[0] | men[1]
        if placed < 6:
            return [(self.names[p], (p,)) for p in self.points if not busy & p]
        return [(self.names[p] + self.names[q], (p, q)) for p in self.points if men[turn] & p for q in self.steps[p] if not busy & q]

    def status(self, node):
        white, black, turn, _, seen = node
        last = (white, black)[1 - turn]
        if any(line & last == line for line in self.lines):
            return "win:first" if turn == 1 else "win:second"
        if not self._moves(node):
            return "win:second" if turn == 0 else "win:first"
        if seen.count((white, black, turn)) >= 3:
            return "draw"
        return "ongoing"

    def legal(self, node):
        return self._moves(node) if self.status(node) == "ongoing" else []

    def apply(self, node, move):
        men, turn, placed, seen = [node[0], node[1]], node[2], node[3], node[4]
        if len(move) == 1:
            men[turn] |= move[0]
            placed += 1
        else:
            men[turn] = men[turn] & ~move[0] | move[1]
        return (men[0], men[1], 1 - turn, placed, seen + ((men[0], men[1], 1 - turn),))


def tapatan_ends(eng, depth):
    """For each ply up to depth, how many games end there: (first player's wins, second's, draws)."""
    ends = [[0, 0, 0] for _ in range(depth + 1)]

    def walk(node, ply):
        st = eng.status(node)
        if st != "ongoing":
            ends[ply][("win:first", "win:second", "draw").index(st)] += 1
            return
        if ply < depth:
            for _, m in eng.legal(node):
                walk(eng.apply(node, m), ply + 1)

    walk(eng.root(), 0)
    return [tuple(e) for e in ends]


def tapatan(quick):
    ref, bits = engine("tapatan"), TapatanBits()
    check("tapatan: placing first (a point), white first", moves_after("tapatan", ""), sorted(p + r for r in "123" for p in "abc"))
    place = "b2 a1 c1 a3 a2 c3"  # all placed: white b2 c1 a2, black a1 a3 c3; b1 c2 b3 empty
    check("tapatan: after six placements a man steps along a line (a2 has no diagonal, c1's only one is to b2)",
          moves_after("tapatan", place), ["b2b1", "b2b3", "b2c2", "c1b1", "c1c2"])
    check("tapatan: three on a line while placing wins (a1 b2 c3)", status_after("tapatan", "a1 a2 b2 b1 c3"), "win:first")
    check("tapatan: ... for the second player too (file b)", status_after("tapatan", "a1 b1 a2 b2 c3 b3"), "win:second")
    check("tapatan: three on a line by a step wins (rank 2)", status_after("tapatan", place + " c1c2"), "win:first")
    check("tapatan: ... the second player's (a1 b2 c3 by a3b2)", status_after("tapatan", place + " b2b3 a3b2"), "win:second")
    check("tapatan: corners step diagonally only to b2 (white a1 c1 a3, black b1 b2 c3)",
          moves_after("tapatan", "a1 b2 c1 b1 a3 c3"), ["a1a2", "a3a2", "a3b3", "c1c2"])
    cycle = place + " c1b1 c3c2 b1c1 c2c3 c1b1 c3c2 b1c1 c2c3"
    check("tapatan: the position after placing, seen a third time, draws",
          (status_after("tapatan", cycle.rsplit(" ", 1)[0]), status_after("tapatan", cycle)), ("ongoing", "draw"))
    # Exhaustively: of the 1680 boards of three men each, 1372 have no line, and on none of them is
    # the side to move without a step: the no-move rule never decides a game of tapatan.
    import itertools

    free = blocked = 0
    for white in itertools.combinations(range(9), 3):
        for black in itertools.combinations([i for i in range(9) if i not in white], 3):
            w, b = sum(1 << i for i in white), sum(1 << i for i in black)
            if any(line & w == line or line & b == line for line in bits.lines):
                continue
            free += 1
            blocked += sum(1 for turn in (0, 1) if not bits._moves((w, b, turn, 6, ())))
    check("tapatan: 1372 boards of 3 + 3 men without a line, on none of them a side without a step", (free, blocked), (1372, 0))
    depth = 7 if quick else 8
    for eng in (ref, bits):
        start = time.time()
        got = [perft(eng, eng.root(), d) for d in range(1, depth + 1)]
        check(f"tapatan: perft 1..{depth} by {eng.oracle} ({time.time() - start:.1f} s)", got, TAPATAN_PERFT[:depth])
    depth = 7 if quick else 9
    for eng in (ref, bits):
        check(f"tapatan: games ending at each ply to {depth} (first's wins, second's, draws), by {eng.oracle}",
              tapatan_ends(eng, depth), TAPATAN_ENDS[: depth + 1])
    cross("tapatan", 40 if quick else 200, 300, engines=(ref, bits))


# Counts both implementations give (README.md, "tapatan").
TAPATAN_PERFT = [9, 72, 504, 3024, 15120, 54720, 199296, 705312, 2567232, 9503136]
TAPATAN_ENDS = [(0, 0, 0)] * 5 + [(1440, 0, 0), (0, 5328, 0), (20160, 0, 0), (0, 68688, 0), (230400, 0, 0)]


# --------------------------------------------------------------------------------------------
# ataxx and amazons: Fairy-Stockfish against implementations of our own, written from README.md


def fen_board(fen):
    """{(0-based file, 1-based rank): letter} of a Fairy-Stockfish FEN's board (its first row is the top
    rank; digits, possibly two of them, count empty squares; `*` is kept as a letter)."""
    rows = fen.split()[0].split("[")[0].split("/")
    out = {}
    for i, row in enumerate(rows):
        f = 0
        for tok in re.findall(r"\d+|.", row):
            if tok.isdigit():
                f += int(tok)
            else:
                out[(f, len(rows) - i)] = tok
                f += 1
    return out


class AtaxxRef:
    """Ataxx as README.md states it, sharing nothing with Fairy-Stockfish: 7 x 7 squares, square i = file + 7
    (rank - 1). A move puts a new stone on an empty square next to (8 neighbours) an own stone, named by the
    square, or jumps an own stone to an empty square at distance two (in files, ranks or both), from+to; then
    every enemy stone next to the square reached turns. A side with stones and no move passes (`pass`). The
    game ends when the board is full or after two passes in a row (more stones win; equal, a draw), or when
    the side to move has no stone (it loses). `*` in a FEN is a blocked square. A node is (white's stones,
    black's, the side to move, the blocked squares, passes in a row)."""

    oracle = "reference"
    START = "P5p/7/7/7/7/7/p5P w 0 1"

    def __init__(self):
        dist = lambda i, j: max(abs(i % 7 - j % 7), abs(i // 7 - j // 7))
        self.names = [sq(i % 7, i // 7 + 1) for i in range(49)]
        self.near = [sum(1 << j for j in range(49) if dist(i, j) == 1) for i in range(49)]
        self.far = [[j for j in range(49) if dist(i, j) == 2] for i in range(49)]

    def root(self, fen=None):
        fen = fen or self.START
        stones = [0, 0, 0]  # white, black, blocked
        for (f, r), ch in fen_board(fen).items():
            stones["Pp*".index(ch)] |= 1 << (f + 7 * (r - 1))
        return (stones[0], stones[1], 0 if fen.split()[1] == "w" else 1, stones[2], 0)

    def _moves(self, node):
        own, other, blocked = node[node[2]], node[1 - node[2]], node[3]
        empty = ((1 << 49) - 1) & ~(own | other | blocked)
        out = []
        for i in range(49):
            if empty >> i & 1 and self.near[i] & own:
                out.append((self.names[i], (None, i)))
            if own >> i & 1:
                out += [(self.names[i] + self.names[j], (i, j)) for j in self.far[i] if empty >> j & 1]
        return out or ([("pass", None)] if own else [])

    def status(self, node):
        white, black, turn, blocked, passes = node
        if white | black | blocked == (1 << 49) - 1 or passes == 2:
            w, b = bin(white).count("1"), bin(black).count("1")
            return "win:first" if w > b else "win:second" if b > w else "draw"
        if not node[turn]:
            return "win:second" if turn == 0 else "win:first"
        return "ongoing"

    def legal(self, node):
        return self._moves(node) if self.status(node) == "ongoing" else []

    def apply(self, node, move):
        men, turn = [node[0], node[1]], node[2]
        if move is not None:
            frm, to = move
            if frm is not None:
                men[turn] &= ~(1 << frm)
            turned = men[1 - turn] & self.near[to]
            men[turn] |= 1 << to | turned
            men[1 - turn] &= ~turned
        return (men[0], men[1], 1 - turn, node[3], node[4] + 1 if move is None else 0)


def ataxx(quick):
    ref = AtaxxRef()
    eng = engine("ataxx")
    sf = eng.sf
    start = moves_after("ataxx", "")
    check("ataxx: white (a7, g1) first: new stones next to its own (the square alone), jumps two away (from+to)",
          start, sorted("a6 b6 b7 f1 f2 g2 a7a5 a7b5 a7c5 a7c6 a7c7 g1e1 g1e2 g1e3 g1f3 g1g3".split()))
    check("ataxx: Fairy-Stockfish writes the new stone as a drop (P@f2), the jump as from+to",
          sorted(sf.legal_moves("ataxx", sf.start_fen("ataxx"), [])),
          sorted("P@a6 P@b6 P@b7 P@f1 P@f2 P@g2 a7a5 a7b5 a7c5 a7c6 a7c7 g1e1 g1e2 g1e3 g1f3 g1g3".split()))
    get = lambda line, start=None: sf.get_fen("ataxx", start or sf.start_fen("ataxx"), line.split()).split()[0]
    check("ataxx: a new stone (f2) keeps g1; a jump (g1e3) leaves g1 empty",
          (get("P@f2"), get("g1e3")), ("P5p/7/7/7/7/5P1/p5P", "P5p/7/7/7/4P2/7/p6"))
    check("ataxx: enemy stones next to the square reached turn, after a new stone (d3 turns c2) or a jump (d2 turns e2)",
          (get("g1e2 a1c2 P@d3"), get("g1e2 P@b2 a7c7 b2d2")), ("P5p/7/7/7/3P3/2P1P2/7", "2P3p/7/7/7/7/3pp2/p6"))
    check("ataxx: a blocked square (* in the FEN) takes no stone (no g1e2)",
          [m for m in moves_after("ataxx", "", fen="P5p/7/7/7/7/4*2/p5P w 0 1") if m.startswith("g1")],
          ["g1e1", "g1e3", "g1f3", "g1g3"])
    blocked = "7/7/7/7/ppp4/ppp4/Ppp4 w 0 1"  # white's a1: every square within two of it taken
    check("ataxx: a side with stones but no move must pass: Fairy-Stockfish's a1a1 (from = to) is `pass`",
          (sf.legal_moves("ataxx", blocked, []), after("ataxx", blocked)), (["a1a1"], ("ongoing", ["pass"])))
    lowest = "7/7/7/7/ppppp2/ppppp2/ppPpp2 w 0 1"
    answers = after("ataxx", lowest, "pass")[1]
    check("ataxx: ... written on the mover's lowest stone (c1c1), and the other side then moves (as the reference says)",
          (sf.legal_moves("ataxx", lowest, []), len(answers) > 0, answers),
          (["c1c1"], True, sorted(n for n, _ in ref.legal(ref.apply(ref.root(lowest), None)))))
    walled = "7/7/7/7/*******/*******/P5p w 0 1"  # rank 1 alone is in reach: once it is full, no one can move
    check("ataxx: where neither side can move (blocked squares only), both pass, and the second pass ends it, counted",
          [after("ataxx", walled, "b1 f1 c1 e1 d1" + tail) for tail in ("", " pass", " pass pass")],
          [("ongoing", ["pass"]), ("ongoing", ["pass"]), ("win:first", [])])
    check("ataxx: no pass while another move exists (not at the start)", "pass" in start, False)
    check("ataxx: a side left without stones loses (white's b1 turns black's last stone)",
          after("ataxx", "7/7/7/7/7/1p5/P6 w 0 1", "b1"), ("win:first", []))
    full = "PPPPPP1/ppppppp/ppppppp/PPPPPPP/PPPPPPP/ppppppp/ppppppp w 0 1"
    check("ataxx: filling the board ends the game: more stones win (white fills g7, black has 26 to 23)",
          (after("ataxx", full)[1], after("ataxx", full, "g7")), (["e7g7", "g7"], ("win:second", [])))
    check("ataxx: ... while a jump that leaves a square empty lets the game go on",
          after("ataxx", full, "e7g7")[0], "ongoing")
    tie = "pppppP1/ppppppp/ppppppp/ppppppp/PPPPPPP/PPPPPPP/*PPPPPP w 0 1"  # 48 squares: g7 makes 24 each
    check("ataxx: a full board with equal counts (one square blocked) is a draw", after("ataxx", tie, "g7"), ("draw", []))
    rep = "g1e1 g7e7 e1g1 e7g7 g1e1 g7e7 e1g1 e7g7"
    check("ataxx: Fairy-Stockfish's threefold repetition is optional and not reported (the start a third time)",
          (sf.is_optional_game_end("ataxx", sf.start_fen("ataxx"), rep.split())[0], after("ataxx", None, rep)[0]),
          (True, "ongoing"))
    check("ataxx: the reference reads the same FENs and lists the same moves",
          [sorted(n for n, _ in ref.legal(ref.root(f))) for f in (None, blocked, tie)],
          [start, ["pass"], ["g7"]])
    for fen, counts in ATAXX_PERFT:
        # Fairy-Stockfish to depth 3 (quick: 2), the reference to 5 (quick: 4); the walled position to 6 and 7.
        walls = fen is not None and fen.startswith("7/7/7/7/*")
        depths = {"fairy-stockfish": 7 if walls else 2 if quick else 3, "reference": 7 if walls else 4 if quick else 5}
        for e in (eng, ref):
            start_t = time.time()
            got = perft_list(e, e.root(fen), depths[e.oracle])
            check(f"ataxx: perft 1..{len(got)} of {fen or 'the start'} by {e.oracle} ({time.time() - start_t:.1f} s)",
                  got, counts[: len(got)])
    if not quick:
        check("ataxx: perft 4 by Fairy-Stockfish = 155888 (Fairy-Stockfish tests/perft.sh)", perft(eng, eng.root(), 4), 155888)
    # From the start, and from the position above where white must pass (its a1 walled in), where passes recur.
    passes = ataxx_random(eng, ref, 4 if quick else 10, 400, [None, blocked])
    check("ataxx: a pass is never answered by a pass (when one side is blocked and squares are empty, the other can move)",
          (passes[0] > 0, passes[1]), (True, 0))


def ataxx_random(eng, ref, games, plies, fens, seed=1):
    """cross() from each FEN in turn (None: the start), counting passes: returns (passes played, passes
    answered by a pass)."""
    rng = random.Random(seed)
    diffs, count, passes, double = [], 0, 0, 0
    ends = {}
    for i in range(games):
        fen = fens[i % len(fens)]
        na, nb, line = eng.root(fen), ref.root(fen), []
        for _ in range(plies):
            sa, sb = eng.status(na), ref.status(nb)
            la = dict(eng.legal(na))
            if sa != "ongoing" and la:
                diffs.append((fen, " ".join(line), "Fairy-Stockfish lists moves after the game's end"))
            lb = dict(ref.legal(nb)) if sb == "ongoing" else {}
            count += 1
            if (sa, sorted(la)) != (sb, sorted(lb)):
                diffs.append((fen, " ".join(line), sa, sorted(la), sb, sorted(lb)))
                break
            if not la:
                ends[sa] = ends.get(sa, 0) + 1
                break
            m = rng.choice(sorted(la))
            if m == "pass":
                passes += 1
                double += bool(line) and line[-1] == "pass"
            line.append(m)
            na, nb = eng.apply(na, la[m]), ref.apply(nb, lb[m])
    check(f"ataxx: Fairy-Stockfish and the reference agree on moves and status ({games} random games, {count} positions, "
          f"{passes} passes; ends {', '.join(f'{k} {v}' for k, v in sorted(ends.items()))})", diffs, [])
    return passes, double


# libataxx's tests/perft.cpp (x is P, o is p, - is *), Fairy-Stockfish's tests/perft.sh (the start to depth 4,
# ppppppp/ppppppp/PPPPPPP to 5), all but one count equal to Fairy-Stockfish's and the reference's: where no
# one can move, libataxx ends the game at once, while Fairy-Stockfish has both sides pass first (README.md): its
# perft 6 of the walled position is 175, libataxx's 174 (and 348 at depth 7, the second pass ending the game).
ATAXX_PERFT = [
    (None, [16, 256, 6460, 155888, 4752668]),
    ("P5p/7/2*1*2/7/2*1*2/7/p5P w 0 1", [14, 196, 4184, 86528, 2266352]),
    ("P5p/7/2*1*2/3*3/2*1*2/7/p5P b 0 1", [14, 196, 4100, 83104, 2114588]),
    ("P5p/7/3*3/2*1*2/3*3/7/p5P w 0 1", [16, 256, 5948, 133264, 3639856]),
    ("7/7/7/7/ppppppp/ppppppp/PPPPPPP w 0 1", [1, 75, 249, 14270, 452980]),
    ("7/7/7/2P1p2/7/7/7 b 0 1", [23, 419, 7887, 168317, 4266992]),
    ("7/7/7/7/*******/*******/P5p w 0 1", [2, 4, 13, 30, 73, 175, 348]),
]


class AmazonsRef:
    """The game of the amazons as README.md states it, sharing nothing with Fairy-Stockfish: 10 x 10, square i =
    file + 10 (rank - 1); a move takes an own queen along one of the eight lines over empty squares to an empty
    square, then shoots an arrow from there the same way onto an empty square (the square just left is empty),
    written `d1d5,d5d1`; arrows stay. The side to move without a move loses."""

    oracle = "reference"
    DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]

    def __init__(self):
        self.names = [sq(i % 10, i // 10 + 1) for i in range(100)]
        self.rays = []  # per square, per direction: the squares along it, nearest first
        for i in range(100):
            x, y = i % 10, i // 10
            self.rays.append([[x + dx * k + 10 * (y + dy * k) for k in range(1, 10) if 0 <= x + dx * k < 10 and 0 <= y + dy * k < 10]
                              for dx, dy in self.DIRS])

    def root(self, fen=None):
        board = fen_board(fen or "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1")
        at = lambda ch: frozenset(f + 10 * (r - 1) for (f, r), c in board.items() if c == ch)
        return (at("Q"), at("q"), at("*"), 0 if fen is None or fen.split()[1] == "w" else 1)

    def _reach(self, frm, taken):
        out = []
        for ray in self.rays[frm]:
            for j in ray:
                if j in taken:
                    break
                out.append(j)
        return out

    def _moves(self, node):
        queens, arrows, turn = node[:2], node[2], node[3]
        taken = queens[0] | queens[1] | arrows
        out = []
        for q in queens[turn]:
            for to in self._reach(q, taken):
                for arrow in self._reach(to, taken - {q}):
                    out.append((f"{self.names[q]}{self.names[to]},{self.names[to]}{self.names[arrow]}", (q, to, arrow)))
        return out

    def status(self, node):
        if self._moves(node):
            return "ongoing"
        return "win:second" if node[3] == 0 else "win:first"

    def legal(self, node):
        return self._moves(node)

    def apply(self, node, move):
        q, to, arrow = move
        queens = [node[0], node[1]]
        queens[node[3]] = queens[node[3]] - {q} | {to}
        return (queens[0], queens[1], node[2] | {arrow}, 1 - node[3])


def amazons(quick):
    ref = AmazonsRef()
    eng = engine("amazons")
    sf = eng.sf
    parts = lambda m: re.fullmatch(r"([a-z]\d+)([a-z]\d+),([a-z]\d+)([a-z]\d+)", m).groups()
    st, start = after("amazons")
    check("amazons: 2176 first moves (queens on d1 g1 a4 j4 for white, first), each queen move, comma, arrow",
          (len(start), sorted({parts(m)[0] for m in start}), all(parts(m)[1] == parts(m)[2] for m in start)),
          (2176, ["a4", "d1", "g1", "j4"], True))
    check("amazons: the arrow may land on the square just left (d1d5,d5d1, d1d2,d2d1) or fly over it (a4a5,a5a3)",
          [m in start for m in ("d1d5,d5d1", "d1d2,d2d1", "a4a5,a5a3")], [True] * 3)
    check("amazons: the arrow stays for good (* in Fairy-Stockfish's FEN)",
          sf.get_fen("amazons", sf.start_fen("amazons"), ["d1d5,d5d1"]), "3q2q3/10/10/q8q/10/3Q6/Q8Q/10/10/3*2Q3 b - - 1 1")
    st, black = after("amazons", None, "d1d5,d5d1")
    check("amazons: nothing moves onto or over an arrow or a queen (d10 stops at d6 above d5; the arrow on d1 bars g1 from c1)",
          (sorted({parts(m)[1] for m in black if parts(m)[0] == "d10" and parts(m)[1][0] == "d"}),
           [m for m in after("amazons", None, "d1d5,d5d1 d10d9,d9d10")[1] if m.startswith("g1c1") or m.startswith("g1e1,e1c1")]),
          (["d6", "d7", "d8", "d9"], []))
    walled = "9q/10/10/10/10/10/10/10/**8/Q*8 w - - 0 1"
    check("amazons: the side to move without a move loses (white's only queen boxed in on a1)", after("amazons", walled),
          ("win:second", []))
    check("amazons: ... the second player too (black's queen boxed in on j10)", after("amazons", "8*q/8**/10/10/10/10/10/10/10/Q9 b - - 0 1"),
          ("win:first", []))
    check("amazons: the reference lists the same moves at the start and after d1d5,d5d1",
          [sorted(n for n, _ in ref.legal(node)) for node in (ref.root(), ref.apply(ref.root(), (3, 43, 3)))], [start, black])
    check("amazons: perft 1 = 2176 by both", (perft(eng, eng.root(), 1), perft(ref, ref.root(), 1)), (2176, 2176))
    if not quick:
        check("amazons: perft 2 = 4307152 by both", (perft(eng, eng.root(), 2), perft(ref, ref.root(), 2)), (4307152, 4307152))
    cross("amazons", 2 if quick else 8, 100, engines=(eng, ref))


# --------------------------------------------------------------------------------------------
# placement: Fairy-Stockfish against drops of our own and python-chess for the play after them


class PlacementRef:
    """Placement chess as README.md states it, sharing nothing with Fairy-Stockfish: our own drops, then
    python-chess. While its hand is not empty a side must drop a piece (`K@e1`, a capital letter for both
    sides) on an empty square of its first rank (rank 1 for white, 8 for black), where its two bishops can
    still end on squares of opposite colours. A king dropped on e1 (e8) gains castling with a rook already
    on a1 or h1 (a8, h8), and a rook dropped there with the king already on e1 (e8) gains it too. Once both
    hands are empty the game is chess from there (python-chess: checkmate loses, stalemate draws). A node is
    (rank 1, rank 8, white's hand, black's hand, side to move, the FEN's ranks 7 to 2, castling rights,
    move counters) while placing, then a python-chess board. Positions where a side whose hand is empty
    must move while the other still holds pieces are not modelled (none is reached from the FENs used)."""

    oracle = "reference"
    START = "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1"

    def __init__(self):
        import chess

        self.chess = chess

    def root(self, fen=None):
        fields = (fen or self.START).split()
        rows, hand = fields[0].split("[")
        rows = rows.split("/")
        expand = lambda row: "".join("." * int(c) if c.isdigit() else c for c in row)
        hand = hand.rstrip("]")
        node = (expand(rows[7]), expand(rows[0]).upper(), "".join(sorted(c for c in hand if c.isupper())),
                "".join(sorted(c.upper() for c in hand if c.islower())), 0 if fields[1] == "w" else 1,
                "/".join(rows[1:7]), "" if fields[2] == "-" else fields[2], " ".join(fields[4:6]))
        return self._maybe_chess(node)

    def _maybe_chess(self, node):
        rank1, rank8, hand_w, hand_b, turn, middle, rights, counters = node
        if hand_w or hand_b:
            return node
        compress = lambda row: re.sub(r"\.+", lambda m: str(len(m.group())), row)
        order = "".join(c for c in "KQkq" if c in rights) or "-"
        fen = f"{compress(rank8.lower())}/{middle}/{compress(rank1)} {'wb'[turn]} {order} - {counters}"
        return self.chess.Board(fen)

    @staticmethod
    def _bishops_fit(rank, hand, rank_number):
        """Can the bishops (on the rank and in hand) still end on one square of each colour?"""
        colour = lambda f: (f + rank_number) % 2  # 1: dark (a1 is dark)
        placed = [colour(f) for f, c in enumerate(rank) if c == "B"]
        if len(set(placed)) < len(placed):
            return False
        needed = {0, 1} - set(placed) if hand.count("B") else set()
        return all(any(c == "." and colour(f) == need for f, c in enumerate(rank)) for need in needed)

    def legal(self, node):
        if not isinstance(node, tuple):
            board = node
            if board.is_checkmate() or board.is_stalemate():
                return []
            return [(m.uci(), m) for m in board.legal_moves]
        turn = node[4]
        rank, hand, number = node[turn], node[2 + turn], (1, 8)[turn]
        if not hand:
            raise OracleError("placement reference: a side with an empty hand to move while the other still places")
        out = []
        for kind in sorted(set(hand)):
            for f in range(8):
                if rank[f] == "." and self._bishops_fit(rank[:f] + kind + rank[f + 1 :], hand.replace(kind, "", 1), number):
                    out.append((f"{kind}@{sq(f, number)}", (f, kind)))
        return out

    def apply(self, node, move):
        if not isinstance(node, tuple):
            child = node.copy(stack=False)
            child.push(move)
            return child
        f, kind = move
        rank1, rank8, hand_w, hand_b, turn, middle, rights, counters = node
        ranks, hands = [rank1, rank8], [hand_w, hand_b]
        rank = ranks[turn] = ranks[turn][:f] + kind + ranks[turn][f + 1 :]
        hands[turn] = hands[turn].replace(kind, "", 1)
        short, long = ("K", "Q") if turn == 0 else ("k", "q")
        if kind == "K" and f == 4:  # the king dropped on e1 (e8): castling with the rooks already in the corners
            rights += (short if rank[7] == "R" else "") + (long if rank[0] == "R" else "")
        elif kind == "R" and f in (0, 7) and rank[4] == "K":  # a rook dropped in a corner, the king already on e1 (e8)
            rights += short if f == 7 else long
        return self._maybe_chess((ranks[0], ranks[1], hands[0], hands[1], 1 - turn, middle, rights, counters))

    def status(self, node):
        if isinstance(node, tuple):
            return "ongoing"
        if node.is_checkmate():
            return "win:second" if node.turn == self.chess.WHITE else "win:first"
        return "draw" if node.is_stalemate() else "ongoing"


def placement(quick):
    ref = PlacementRef()
    eng = engine("placement")
    sf = eng.sf
    start = moves_after("placement", "")
    check("placement: 40 first moves: K Q R B N dropped on any square of rank 1, no pawn move",
          start, sorted(f"{k}@{f}1" for k in "KQRBN" for f in "abcdefgh"))
    check("placement: black drops on rank 8, with capital letters too",
          moves_after("placement", "K@e1"), sorted(f"{k}@{f}8" for k in "KQRBN" for f in "abcdefgh"))
    check("placement: a kind held twice is dropped twice (R, R)", [m for m in moves_after("placement", "R@a1 R@a8") if m[0] == "R"],
          [f"R@{f}1" for f in "bcdefgh"])
    check("placement: after a bishop on a1 (dark) the other goes only to a light square",
          [m for m in moves_after("placement", "B@a1 K@e8") if m[0] == "B"], ["B@b1", "B@d1", "B@f1", "B@h1"])
    check("placement: no drop may leave the bishops in hand without a square of each colour (no N@g1: f1, h1 light)",
          moves_after("placement", "", fen="8/pppppppp/8/8/8/8/PPPPPPPP/KQRRN3[BBNkqrrbbnn] w - - 0 1"),
          ["B@f1", "B@g1", "B@h1", "N@f1", "N@h1"])
    white = "K@e1 Q@d1 R@a1 R@h1 B@c1 B@f1 N@b1 N@g1".split()
    line = " ".join(x for pair in zip(white, [m[:3] + "8" for m in white]) for x in pair)
    check("placement: black's last drop, its only move (white, with an empty hand, waits: no pawn moves while placing)",
          moves_after("placement", line.rsplit(" ", 1)[0]), ["N@g8"])
    check("placement: once both hands are empty, chess: 20 moves, no drops",
          moves_after("placement", line), moves_after("placement", "", fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 9"))
    early = "8/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[kqrrbbnn] w KQ - 0 1"  # white placed, black not yet
    check("placement: a side whose hand is empty moves while the other still places (from a FEN)",
          (moves_after("placement", "", fen=early), moves_after("placement", "e2e4", fen=early)),
          (moves_after("placement", line), sorted(f"{k}@{f}8" for k in "KQRBN" for f in "abcdefgh")))
    fen = lambda moves: sf.get_fen("placement", sf.start_fen("placement"), moves.split()).split()[2]
    moved = lambda ws: " ".join(x for pair in zip(ws.split(), [m[:3] + "8" for m in ws.split()]) for x in pair)
    check("placement: castling rights for a king dropped on e1 (e8) with the rooks in the corners, in either order",
          (fen(line), fen(moved("R@h1 R@a1 K@e1 Q@d1 B@c1 B@f1 N@b1 N@g1"))), ("KQkq", "KQkq"))
    check("placement: none with the king on d1, only short with a rook on h1 and b1",
          (fen(moved("K@d1 Q@e1 R@a1 R@h1 B@c1 B@f1 N@b1 N@g1")), fen(moved("K@e1 Q@d1 R@b1 R@h1 B@c1 B@f1 N@a1 N@g1"))),
          ("-", "Kk"))
    check("placement: castling afterwards as in chess (e1g1)",
          "e1g1" in moves_after("placement", line + " g1f3 g8f6 e2e3 e7e6 f1e2 f8e7"), True)
    check("placement: checkmate wins (the fool's mate after the usual set-up)",
          after("placement", None, line + " f2f3 e7e5 g2g4 d8h4"), ("win:second", []))
    check("placement: the reference drops alike (start, black's answers, bishops, the last drop)",
          [sorted(n for n, _ in ref.legal(play_line(ref, ref.root(), m.split()))) for m in ("", "K@e1", "B@a1 K@e8", line.rsplit(" ", 1)[0])],
          [start, moves_after("placement", "K@e1"), moves_after("placement", "B@a1 K@e8"), ["N@g8"]])
    start_t = time.time()
    got = perft_list(eng, eng.root(), 2)
    check(f"placement: perft 1, 2 by Fairy-Stockfish = 40, 1600 ({time.time() - start_t:.1f} s)", got, PLACEMENT_PERFT[:2])
    depth = 3 if quick else 4
    start_t = time.time()
    got = perft_list(ref, ref.root(), depth)
    check(f"placement: perft 1..{depth} by the reference ({time.time() - start_t:.1f} s)", got, PLACEMENT_PERFT[:depth])
    for fen, depth, want, fsf_too in PLACEMENT_FSF_TESTS:
        engines = (ref, eng) if fsf_too and not quick else (ref,)
        check(f"placement: perft {depth} of {fen} = {want} (Fairy-Stockfish tests/perft.sh) by {', '.join(e.oracle for e in engines)}",
              [perft(e, e.root(fen), depth) for e in engines], [want] * len(engines))
    if not quick:
        check("placement: perft 3 by Fairy-Stockfish = 50560 (tests/perft.sh)", perft(eng, eng.root(), 3), 50560)
    cross("placement", 4 if quick else 16, 60 if quick else 120, engines=(eng, ref))


# Fairy-Stockfish's tests/perft.sh for placement (start: depth 3 = 50560); 1264 * 1264 = 1597696 at depth 4 (each
# side's drops are independent of the other's: 1264 two-drop sequences each).
PLACEMENT_PERFT = [40, 1600, 50560, 1597696]
PLACEMENT_FSF_TESTS = [
    # (FEN, depth, count, Fairy-Stockfish too in the full run; the third takes it 45 s)
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/QR1BKNN1[BRk] w - - 0 1", 6, 17804, True),
    ("r3k3/pppppppp/8/8/8/8/PPPPPPPP/R6R[Kr] w q - 0 1", 4, 18492, True),
    ("1n1r1q2/pppppppp/8/8/8/8/PPPPPPPP/1N1B1R1N[KQRBkrbbn] b - - 0 4", 5, 145152, False),
]


# --------------------------------------------------------------------------------------------
# havannah: open_spiel's cells onto Arbiter's hexagon, its wins against an independent check


def hav_cells(n):
    """(0-based file, 1-based rank) of the cells of side n: n + 1 <= file + rank <= 3n - 1, files from 1."""
    d = 2 * n - 1
    return [(f, r) for r in range(1, d + 1) for f in range(d) if n + 1 <= f + 1 + r <= 3 * n - 1]


def hav_neighbours(cell, n):
    f, r = cell
    d = 2 * n - 1
    out = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1)):
        g, s = f + df, r + dr
        if 0 <= g < d and 1 <= s <= d and n + 1 <= g + 1 + s <= 3 * n - 1:
            out.append((g, s))
    return out


def hav_corners(n):
    d = 2 * n - 1  # files from 1: (1, n) (n, 1) (d, 1) (d, n) (n, d) (1, d)
    return {(0, n), (n - 1, 1), (d - 1, 1), (d - 1, n), (n - 1, d), (0, d)}


def hav_sides(cell, n):
    """The sides a cell lies on (0..5: file a, rank 1, file + rank = n + 1, the last file, the last rank,
    file + rank = 3n - 1); a corner lies on none."""
    if cell in hav_corners(n):
        return set()
    f, r = cell[0] + 1, cell[1]
    d = 2 * n - 1
    return {i for i, on in enumerate((f == 1, r == 1, f + r == n + 1, f == d, r == d, f + r == 3 * n - 1)) if on}


def hav_won(stones, n):
    """How one player's stones (a set of cells) win: 'bridge' (a chain joining two corners), 'fork' (a chain
    touching three sides), 'ring' (a chain around at least one cell, whatever is on it), or None. A ring is
    there when some cell not among the stones cannot reach the board's rim without crossing them, or when
    some stone off the rim has all six neighbours among the stones (a ring around own stones)."""
    corners = hav_corners(n)
    seen = set()
    for start in stones:
        if start in seen:
            continue
        seen.add(start)
        chain, todo = [start], [start]
        while todo:
            for c in hav_neighbours(todo.pop(), n):
                if c in stones and c not in seen:
                    seen.add(c)
                    chain.append(c)
                    todo.append(c)
        if len(corners.intersection(chain)) >= 2:
            return "bridge"
        if len(set().union(*(hav_sides(c, n) for c in chain))) >= 3:
            return "fork"
    cells = hav_cells(n)
    rim = [c for c in cells if len(hav_neighbours(c, n)) < 6]
    outside = {c for c in rim if c not in stones}
    todo = list(outside)
    while todo:
        for c in hav_neighbours(todo.pop(), n):
            if c not in stones and c not in outside:
                outside.add(c)
                todo.append(c)
    if any(c not in stones and c not in outside for c in cells):
        return "ring"
    if any(c in stones and len(hav_neighbours(c, n)) == 6 and all(x in stones for x in hav_neighbours(c, n)) for c in cells):
        return "ring"
    return None


def hav_probe_line(u, v, n):
    """Moves after which the first player's last stone, on v, wins exactly when v touches u (by Arbiter's
    neighbours), or None: the first player's chain A runs from a corner to u, away from v and its neighbours
    (u itself may touch v); its chain B runs from another corner to v, away from A and A's neighbours; the
    second player's stones lie elsewhere and cannot win. Checked with hav_won: no win before v; with v a win
    (a bridge) exactly when u and v touch."""
    from collections import deque

    cells, corners = set(hav_cells(n)), hav_corners(n)

    def path(src, dst, allowed):
        prev, todo = {src: None}, deque([src])
        while todo:
            x = todo.popleft()
            if x == dst:
                out = []
                while x is not None:
                    out.append(x)
                    x = prev[x]
                return out[::-1]
            for c in hav_neighbours(x, n):
                if c in allowed and c not in prev:
                    prev[c] = x
                    todo.append(c)
        return None

    touching = v in hav_neighbours(u, n)
    for k1 in sorted(corners):
        for k2 in sorted(corners):
            if k1 == k2 or (u in corners and k1 != u) or (v in corners and k2 != v):
                continue
            a = path(k1, u, (cells - {v} - set(hav_neighbours(v, n)) - (corners - {k1})) | {u})
            if not a:
                continue
            near_a = set(a).union(*(hav_neighbours(c, n) for c in a))
            b = path(k2, v, (cells - near_a - (corners - {k2})) | {v})
            if not b or v in a:
                continue
            first = a + b
            if hav_won(set(first) - {v}, n) or bool(hav_won(set(first), n)) != touching:
                continue
            second = []
            for c in sorted(cells - set(first), key=lambda c: (bool(hav_sides(c, n)) or c in corners, c)):
                if len(second) < len(first) - 1 and not hav_won(set(second) | {c}, n):
                    second.append(c)
            if len(second) == len(first) - 1:
                return [sq(*c) for pair in zip(first, second + [v]) for c in pair][:-1]
    return None


def havannah(quick):
    for n in (2, 3, 4, 5, 8):
        eng = engine("havannah", params={"board_size": n})
        names = sorted(name for name, _ in eng.legal(eng.root()))
        check(f"havannah {n}: {len(names)} cells, those of {n + 1} <= file + rank <= {3 * n - 1}, none twice",
              (names, len(names)), (sorted(sq(*c) for c in hav_cells(n)), 3 * n * n - 3 * n + 1))
    eng = engine("havannah")
    state = eng.root()
    its = {state.action_to_string(0, a): name for name, a in eng.legal(state)}
    check("havannah: open_spiel's a1 d1 g4 g7 d7 a4 (its corners) are a7 d7 g4 g1 d1 a4 (its rank r is rank 8 - r)",
          [its[c] for c in ("a1", "d1", "g4", "g7", "d7", "a4")], ["a7", "d7", "g4", "g1", "d1", "a4"])
    # Every ordered pair of cells (u, v): a line where the first player's stone on v makes a bridge exactly
    # when v touches u by Arbiter's neighbours (hav_probe_line); open_spiel must agree at every ply.
    n = 4
    bad, missing, pairs = [], [], 0
    for u in hav_cells(n):
        for v in hav_cells(n):
            if u == v:
                continue
            line = hav_probe_line(u, v, n)
            if line is None:
                missing.append((sq(*u), sq(*v)))
                continue
            pairs += 1
            node = eng.root()
            for i, m in enumerate(line):
                node = play_line(eng, node, [m])
                want = ("win:first" if v in hav_neighbours(u, n) else "ongoing") if i == len(line) - 1 else "ongoing"
                if eng.status(node) != want:
                    bad.append((sq(*u), sq(*v), " ".join(line[: i + 1]), eng.status(node), want))
                    break
    check(f"havannah: cell v touches cell u exactly when Arbiter's neighbours say so ({pairs} ordered pairs, by bridges)",
          (bad, missing), ([], []))

    def line(first, second):
        return " ".join(x for i in range(max(len(first), len(second))) for x in first[i : i + 1] + second[i : i + 1])

    def both(first, second):
        """The status before and after the first player's last stone."""
        return (status_after("havannah", line(first[:-1], second)), status_after("havannah", line(first, second)))

    far = "d4 e4 d3 c4 c5 d5 e3".split()  # the second player's stones, away from the chains below
    check("havannah: a bridge up file a (corner a4 to corner a7, steps (f, r+1)) wins with its last stone",
          both("a4 a5 a6 a7".split(), far[:3]), ("ongoing", "win:first"))
    check("havannah: a bridge along rank 1 (d1 to g1, steps (f+1, r))", both("d1 e1 f1 g1".split(), far[:3]),
          ("ongoing", "win:first"))
    check("havannah: a bridge along the side a4 b3 c2 d1 (steps (f+1, r-1))", both("a4 b3 c2 d1".split(), far[:3]),
          ("ongoing", "win:first"))
    check("havannah: the second player's bridge up file g (g1 to g4)", status_after("havannah", line("a5 b5 c5 a6".split(), "g1 g2 g3 g4".split())),
          "win:second")
    check("havannah: d1 e2 f3 g4 (steps (f+1, r+1), not neighbours) joins nothing", status_after("havannah", line("d1 e2 f3 g4".split(), far[:3])),
          "ongoing")
    ring = "c4 e4 d3 d5 c5 e3".split()  # d4's six neighbours
    other = "a7 g1 a4 g4 d7 d1".split()  # the corners, touching nothing of the first player's
    check("havannah: a ring around an empty cell (d4's six neighbours) wins with its sixth stone", both(ring, other[:5]),
          ("ongoing", "win:first"))
    check("havannah: a ring around the other player's stone (d4)", status_after("havannah", line(ring, ["d4"] + other[:4])), "win:first")
    check("havannah: a ring around an own stone (d4 played first)", both(["d4"] + ring, other), ("ongoing", "win:first"))
    two = "c4 d5 d3 c5 e3 f4 e5 f3".split()  # around d4 and e4, both empty
    check("havannah: a ring around two cells (eight stones)", both(two, "a7 g1 a4 g4 d7 d1 b7".split()), ("ongoing", "win:first"))
    check("havannah: a ring along the rim (around b5: a5 a6 on file a)", both("c5 a5 b6 b4 a6 c4".split(), "g1 g2 g3 f1 e1".split()),
          ("ongoing", "win:first"))
    check("havannah: three stones touching each other enclose nothing", status_after("havannah", line("c4 d4 c5".split(), "g1 g2 g3".split())),
          "ongoing")
    fork = "a5 b5 c5 d5 e5 c6 c7 f5".split()  # file a (a5), rank 7 (c7), the side file + rank = 11 (f5)
    check("havannah: a fork: a chain touching three sides (a5, c7, f5) wins with its last stone",
          both(fork, "d1 e1 f1 g2 g3 e2 f2".split()), ("ongoing", "win:first"))
    corner = "a4 a5 b5 b6 b7 b3".split()  # corner a4, file a (a5), rank 7 (b7); then b3 on the side a4 b3 c2 d1
    check("havannah: a corner belongs to no side: a4 with file a and rank 7 is two sides; b3 adds the third",
          both(corner, "e1 f1 g2 g3 f2".split()), ("ongoing", "win:first"))
    first = "a5 a6 b4 b7 c2 c4 c6 c7 d1 d2 d3 d6 e6 f1 f2 f3 f4 g2 g4".split()
    second = "a4 a7 b3 b5 b6 c3 c5 d4 d5 d7 e1 e2 e3 e4 e5 f5 g1 g3".split()
    check("havannah: a full board where no one has won is a draw (19 and 18 stones; neither side has a ring, bridge or fork)",
          (hav_won({parse_sq(c) for c in first}, 4), hav_won({parse_sq(c) for c in second}, 4),
           status_after("havannah", line(first[:-1], second)), status_after("havannah", line(first, second))),
          (None, None, "ongoing", "draw"))
    # Rings of many shapes: around a random connected region (1 to 7 cells off the rim, some holding stones of
    # either player), the first player's stones placed in random order, the second player's elsewhere;
    # open_spiel's status after every ply against hav_won.
    n, rng = 6, random.Random(2)
    e, cells = engine("havannah", params={"board_size": n}), hav_cells(n)
    inner = [c for c in cells if len(hav_neighbours(c, n)) == 6]
    bad, ends = [], {}
    for _ in range(150 if quick else 600):
        region = {rng.choice(inner)}
        for _ in range(rng.randint(0, 6)):
            region.add(rng.choice([c for r in region for c in hav_neighbours(r, n) if c in inner and c not in region]))
        ring = sorted({c for r in region for c in hav_neighbours(r, n)} - region)
        rng.shuffle(ring)
        own = [c for c in sorted(region) if rng.random() < 0.4]
        theirs = [c for c in sorted(region) if c not in own and rng.random() < 0.5]
        first = own + ring
        second = theirs + rng.sample([c for c in cells if c not in region and c not in ring], len(first) - len(theirs))
        state, stones = e.root(), (set(), set())
        for i in range(2 * len(first)):
            player, cell = i % 2, (first, second)[i % 2][i // 2]
            stones[player].add(cell)
            state = play_line(e, state, [sq(*cell)])
            how = hav_won(stones[player], n)
            if e.status(state) != (("win:first", "win:second")[player] if how else "ongoing"):
                bad.append((" ".join(sq(*c) for c in sorted(region)), e.status(state), how))
            if how or e.status(state) != "ongoing":
                ends[how] = ends.get(how, 0) + 1
                break
    check(f"havannah: rings of many shapes (size 6): open_spiel's status after every ply is the independent check's "
          f"({', '.join(f'{k} {v}' for k, v in sorted(ends.items(), key=str))})", bad, [])
    # Random games: open_spiel's status after every move against hav_won.
    rng = random.Random(1)
    bad, games, ends = [], 0, {}
    for n in (2, 3, 4, 5, 6) + (() if quick else (7, 8)):
        e = engine("havannah", params={"board_size": n})
        for _ in range(30 if quick else 100):
            games += 1
            state, stones, player, total = e.root(), (set(), set()), 0, len(hav_cells(n))
            while True:
                name, action = rng.choice(e.legal(state))
                stones[player].add(parse_sq(name))
                state = e.apply(state, action)
                how = hav_won(stones[player], n)
                want = (("win:first", "win:second")[player] if how else
                        "draw" if len(stones[0]) + len(stones[1]) == total else "ongoing")
                if e.status(state) != want:
                    bad.append((n, e.status(state), want))
                    break
                if want != "ongoing":
                    ends[how or want] = ends.get(how or want, 0) + 1
                    break
                player = 1 - player
    check(f"havannah: open_spiel's status after every move is the independent check's ({games} random games on sizes 2-"
          f"{6 if quick else 8}; {', '.join(f'{k} {v}' for k, v in sorted(ends.items()))})", bad, [])
    depth = 3 if quick else 4
    want = [37, 37 * 36, 37 * 36 * 35, 37 * 36 * 35 * 34][:depth]
    check(f"havannah: perft 1..{depth} = 37, 37 * 36, ... (no game ends before the seventh ply)",
          perft_list(eng, eng.root(), depth), want)


# --------------------------------------------------------------------------------------------
# counts with published or independently derived values


def known_counts(quick):
    fsf_tests = "Fairy-Stockfish tests/perft.sh"
    cases = [
        # (game, oracle, depth, count, source[, FEN[, in the quick run too]]); by default a count
        # deeper than 6 runs in the full selftest only.
        ("tic-tac-toe", None, 9, 127872, "derived: 255168 games, 127872 of them last 9 plies"),
        ("connect-four", None, 6, 117649, "7^6: no game ends before ply 7"),
        ("connect-four", None, 7, 823536, "7^7 - 7: a file holds six pieces"),
        ("othello", None, 7, 55092, "Fairy-Stockfish tests/perft.sh (flipello); Aart Bik, Perft for Reversi"),
        ("draughts", "open_spiel", 7, 179740, "Aart Bik, perft for 8x8 checkers (2009)"),
        ("draughts", "pydraughts", 4, 1469, "Aart Bik"),
        ("breakthrough", "open_spiel", 4, 256036, "Fairy-Stockfish tests/perft.sh"),
        ("crazyhouse", None, 3, 8902, "equal to chess until a capture can be dropped"),
        ("hex", None, 2, 121 * 120, "121 * 120"),
        ("antichess", "fairy-stockfish", 3, 8067, "python-chess's too"),
        ("antichess", "python-chess", 4, 153299, fsf_tests),
        ("atomic", "fairy-stockfish", 3, 8902, "equal to chess until a capture can explode a king"),
        ("atomic", "python-chess", 4, 197326, fsf_tests),
        ("atomic", "fairy-stockfish", 2, 148, fsf_tests, "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1"),
        ("atomic", "python-chess", 2, 148, fsf_tests, "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1"),
        ("atomic", "python-chess", 4, 714499, fsf_tests, "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq - 0 1", False),
        ("three-check", "fairy-stockfish", 3, 8902, "equal to chess: three checks take five plies at least"),
        ("three-check", "python-chess", 4, 197281, "equal to chess: no third check within 4 plies"),
        ("three-check", "fairy-stockfish", 3, 12407, fsf_tests, "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39"),
        ("three-check", "python-chess", 3, 12407, fsf_tests, "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39"),
        ("three-check", "python-chess", 3, 12407, fsf_tests, "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1 39 +2+0"),
        ("duck-chess", None, 1, 640, "20 moves x 32 empty squares for the duck"),
        ("duck-chess", None, 2, 379440, "Fairy-Stockfish only (no second source)", None, False),
        ("isolation", None, 1, 225, "5 steps x 45 squares to remove"),
        ("seirawan", None, 2, 784, "28 x 28: no first move changes the other side's 28"),
        ("seirawan", None, 4, 782599, fsf_tests, None, False),
        ("clobber", "open_spiel", 4, 2630382, "Fairy-Stockfish agrees to depth 3 (full selftest)", None, True),
        ("clobber", "fairy-stockfish", 2, 2116, "open_spiel's"),
        ("clobber", "fairy-stockfish", 3, 80063, "open_spiel's", None, False),
        ("russian-draughts", None, 4, 1469, "equal to English draughts until a man can capture backwards"),
        ("russian-draughts", None, 5, 7482, "pydraughts only (Brazilian's 7473, with its majority rule, is near)", None, False),
        ("turkish-draughts", None, 3, 708, "pydraughts only"),
        ("y", None, 2, 190 * 189, "190 * 189"),
        ("y", None, 3, 190 * 189 * 188, "190 * 189 * 188: a winning chain has 19 stones at least", None, False),
        ("lines-of-action", None, 4, 1563208, "the independent generator's (README.md)", None, True),
    ]
    for case in cases:
        game, oracle, depth, want, source = case[:5]
        fen = case[5] if len(case) > 5 else None
        in_quick = case[6] if len(case) > 6 else depth <= 6
        if quick and not in_quick:
            continue
        eng = engine(game, oracle)
        start = time.time()
        got = perft(eng, eng.root(fen), depth)
        where = f" of {fen}" if fen else ""
        check(f"{game} perft {depth}{where} by {eng.oracle} = {want} ({source}; {time.time() - start:.1f} s)", got, want)
    eng = engine("crazyhouse")
    got = perft(eng, eng.root("2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1"), 2)
    check("crazyhouse perft 2 of 2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w = 75353 (Fairy-Stockfish tests/perft.sh)", got, 75353)


# --------------------------------------------------------------------------------------------
# the oracles of a game against one another


def cross(game, games, plies, seed=1, engines=None):
    """Random games: at every ply both oracles (GAMES' first two, or the engines given) list the same
    moves and the same status."""
    if engines:
        a, b = engines
    else:
        names = list(GAMES[game])
        a, b = engine(game, names[0]), engine(game, names[1])
    rng = random.Random(seed)
    diffs = []
    count = 0
    for _ in range(games):
        na, nb = a.root(), b.root()
        line = []
        for _ in range(plies):
            sa, sb = a.status(na), b.status(nb)
            for eng, node in ((a, na), (b, nb)):
                if getattr(eng, "immediate_ends", False) and eng._ended(node) is not None and eng.legal(node):
                    diffs.append((" ".join(line), eng.oracle, "lists moves after the game's end"))
            la = dict(a.legal(na)) if sa == "ongoing" else {}
            lb = dict(b.legal(nb)) if sb == "ongoing" else {}
            count += 1
            if game == "draughts" and sb == "draw" and sa == "ongoing":
                break  # open_spiel's 40-ply draw without a capture, which Arbiter does not have
            if (sa, sorted(la)) != (sb, sorted(lb)):
                diffs.append((" ".join(line), sa, sorted(la), sb, sorted(lb)))
                break
            if not la:
                break
            m = rng.choice(sorted(la))
            line.append(m)
            na, nb = a.apply(na, la[m]), b.apply(nb, lb[m])
    check(f"{game}: {a.oracle} and {b.oracle} agree on moves and status ({games} random games, {count} positions)", diffs, [])


def crazyhouse_cross(games, plies, seed=1):
    """Fairy-Stockfish's positions along random games, loaded by FEN into open_spiel: same number
    of legal moves, and the same perft(2) every tenth ply."""
    a = engine("crazyhouse")
    os_ = OsCrazyhouse()
    sf = a.sf
    rng = random.Random(seed)
    diffs = []
    count = 0
    for _ in range(games):
        node = a.root()
        for ply in range(plies):
            legal = a.legal(node)
            fen = sf.get_fen("crazyhouse", node[0], list(node[1]))
            s = os_.root(fen)
            count += 1
            got = len(s.legal_actions()) if not s.is_terminal() else 0
            if got != len(legal):
                diffs.append((fen, len(legal), got))
                break
            if ply % 10 == 5:
                p_fsf = perft(a, a.root(fen), 2)
                p_os = perft(os_, s, 2)
                if p_fsf != p_os:
                    diffs.append((fen, "perft 2", p_fsf, p_os))
                    break
            if not legal:
                break
            node = a.apply(node, rng.choice(sorted(legal))[1])
    check(f"crazyhouse: Fairy-Stockfish and open_spiel count alike ({games} random games, {count} positions)", diffs, [])


def draughts_random(game, games, plies, seed=1):
    """Random games: no two legal moves share a name, and where pydraughts itself sees a winner it is
    the side Arbiter's rule names."""
    eng = engine(game)
    rng = random.Random(seed)
    bad = []
    count = 0
    for _ in range(games):
        board = eng.root()
        for _ in range(plies):
            legal = eng.legal(board)
            names = [n for n, _ in legal]
            status = eng.status(board)
            count += 1
            if len(set(names)) != len(names):
                bad.append((board.fen, "repeated names", sorted(names)))
            winner = board.winner()  # pydraughts: 2 white, 1 black, 0 a draw, None going on
            if winner in (1, 2) and status != ("win:first" if winner == 2 else "win:second"):
                bad.append((board.fen, winner, status))
            if not legal:
                break
            board = eng.apply(board, rng.choice(legal)[1])
    check(f"{game}: moves named one to one, and pydraughts' own winners agree ({games} random games, {count} positions)", bad, [])


def main(args):
    quick = "--quick" in args
    start = time.time()
    sections = [
        draughts_geometry,
        hex_geometry,
        small_games,
        lambda: known_counts(quick),
        lambda: cross("tic-tac-toe", 40, 9),
        lambda: cross("connect-four", 10 if quick else 30, 42),
        lambda: cross("othello", 4 if quick else 12, 70),
        lambda: cross("breakthrough", 3 if quick else 8, 200),
        lambda: cross("draughts", 3 if quick else 8, 150),
        lambda: crazyhouse_cross(2 if quick else 5, 60),
        chess_variants,
        fsf_rules,
        clobber_mapping,
        draughts_variants,
        lambda: y_geometry(quick),
        lambda: lines_of_action(quick),
        lambda: tapatan(quick),
        lambda: cross("antichess", 3 if quick else 10, 300),
        lambda: cross("atomic", 2 if quick else 8, 150 if quick else 300),
        lambda: cross("three-check", 3 if quick else 10, 300),
        lambda: cross("clobber", 10 if quick else 40, 60),
        lambda: draughts_random("russian-draughts", 2 if quick else 8, 150),
        lambda: draughts_random("turkish-draughts", 2 if quick else 8, 150),
        lambda: ataxx(quick),
        lambda: amazons(quick),
        lambda: placement(quick),
        lambda: havannah(quick),
    ]
    for section in sections:
        try:
            section()
        except Exception as e:  # a missing package or an engine's failure fails the section
            print(f"FAIL  {type(e).__name__}: {e}")
            results["failed"] += 1
    print(f"selftest: {results['passed']} passed, {results['failed']} failed ({time.time() - start:.0f} s)")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
