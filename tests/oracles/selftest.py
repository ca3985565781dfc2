"""Checks of oracle.py's mappings: geometry probes, hand-made positions, known counts, and the
oracles of each game against one another along seeded random games. `oracle.py selftest`."""

import random
import sys
import time

from engines import (
    FILES,
    GAMES,
    OsCrazyhouse,
    Pydraughts,
    draughts_square,
    engine,
    parse_sq,
    perft,
    play_line,
    sq,
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
# counts with published or independently derived values


def known_counts(quick):
    cases = [
        ("tic-tac-toe", None, 9, 127872, "derived: 255168 games, 127872 of them last 9 plies"),
        ("connect-four", None, 6, 117649, "7^6: no game ends before ply 7"),
        ("connect-four", None, 7, 823536, "7^7 - 7: a file holds six pieces"),
        ("othello", None, 7, 55092, "Fairy-Stockfish tests/perft.sh (flipello); Aart Bik, Perft for Reversi"),
        ("draughts", "open_spiel", 7, 179740, "Aart Bik, perft for 8x8 checkers (2009)"),
        ("draughts", "pydraughts", 4, 1469, "Aart Bik"),
        ("breakthrough", "open_spiel", 4, 256036, "Fairy-Stockfish tests/perft.sh"),
        ("crazyhouse", None, 3, 8902, "equal to chess until a capture can be dropped"),
        ("hex", None, 2, 121 * 120, "121 * 120"),
    ]
    for game, oracle, depth, want, source in cases:
        if quick and depth > 6:
            continue
        eng = engine(game, oracle)
        start = time.time()
        got = perft(eng, eng.root(), depth)
        check(f"{game} perft {depth} by {eng.oracle} = {want} ({source}; {time.time() - start:.1f} s)", got, want)
    eng = engine("crazyhouse")
    got = perft(eng, eng.root("2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1"), 2)
    check("crazyhouse perft 2 of 2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w = 75353 (Fairy-Stockfish tests/perft.sh)", got, 75353)


# --------------------------------------------------------------------------------------------
# the oracles of a game against one another


def cross(game, games, plies, seed=1):
    """Random games: at every ply both oracles list the same moves and the same status."""
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
