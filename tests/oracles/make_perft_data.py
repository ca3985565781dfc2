#!/usr/bin/env python3
"""Regenerates tests/perft/<game>.txt for the oracle games from the oracles themselves.

    python3 tests/oracles/make_perft_data.py [GAME ...] [--check]

Every count is computed by each oracle of the game that can afford it (open_spiel always; pyffish
and pydraughts, slow per position, within a budget of positions visited), and every oracle that
computed it must agree, as must the published numbers noted below. --check compares with the files
instead of writing them. Positions are the start, a line of moves from the start (written
`moves ...`, Arbiter's notation), or for crazyhouse a FEN. The lines of moves were picked from
seeded random games for what they exercise (passes, kings and multi-jumps, wins near the leaves,
promoted pieces in crazyhouse); they are fixed here so the data does not depend on a generator.
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ left in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engines import COUNT_ONLY, GAMES, engine, perft, play_line  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Positions visited (the leaves' parents included) that a slow oracle may spend on one count:
# pyffish costs about 1.4 ms a position, pydraughts about 3.5 ms.
BUDGET = {"fairy-stockfish": 12000, "pydraughts": 2500}

BIK_CHECKERS = "Aart Bik, \"perft for 8x8 checkers\", talkchess.com, 2009"
BIK_REVERSI = "Aart Bik, \"Perft for Reversi\", aartbik.blogspot.com, 2009"
FSF_TESTS = "Fairy-Stockfish's tests/perft.sh"
SHAKMATY = "shakmaty 0.30.1's tests/crazyhouse.perft"

SPEC = {
    "tic-tac-toe": {
        "about": [
            "Tic-tac-toe: 3x3, files a-c, ranks 1-3, x (first) and o; a move is the square.",
            "Start counts 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872: of the 255168 possible",
            "games 1440 end at ply 5, 5328 at ply 6, 47952 at ply 7, 72576 at ply 8, 127872 at ply 9",
            "(a well-known count), and perft(n+1) = (perft(n) - games ended at n) * (9 - n).",
        ],
        "entries": [
            ("start", range(1, 10), {}),
            ("moves b2 a1", range(1, 8), {}),
            ("moves a1 b1 a2 b2", range(1, 6), {}),
        ],
    },
    "connect-four": {
        "about": [
            "Connect four: 7 files (a-g) x 6 ranks, pieces fall toward rank 1; a move is the square",
            "where the piece comes to rest. From the start no game ends before ply 7, so perft(n) = 7^n",
            "to depth 6, and 7^7 - 7 = 823536 at depth 7 (a file holds six pieces, not seven).",
        ],
        "entries": [
            ("start", range(1, 9), {"7^n, 7^7 - 7": {1: 7, 2: 49, 3: 343, 4: 2401, 5: 16807, 6: 117649, 7: 823536}}),
            ("moves b1 e1 e2 b2 c1 e3 d1 f1 e4 a1 e5 a2 g1 d2 c2 e6", range(1, 9), {}),
            ("moves d1 g1 e1 g2 g3 d2 d3 e2 g4 e3 b1 b2 g5 e4 d4 f1", range(1, 9), {}),
        ],
    },
    "othello": {
        "about": [
            "Othello: 8x8, black (first) on d5 and e4, white on d4 and e5. A pass is a move (a ply),",
            "allowed only without another move; the game ends when neither side can move. Start counts",
            f"to depth 9 are published ({BIK_REVERSI}); {FSF_TESTS} has 55092 at depth 7.",
            "Deeper, conventions part: the 228 games that end at ply 9 (wipe-outs) have no children here",
            "(depth 10 is 24571056), and Bik's depth 10, 24571284, counts each of them once more.",
        ],
        "entries": [
            ("start", range(1, 10), {"Bik": {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216, 9: 3005288}}),
            # black (first) must pass at once, then white plays on
            ("moves f5 f4 g3 g4 h3 h4 e3 d2 c3 f2 f3 c5 b5 f6 h5 g2 d3 c6 c7 c2 f1 b2 b3 b4 g5 h1 c1 e6 a2 g6 "
             "e1 e2 g7 c4 g1 a5 f7 d1 b6 h2", range(1, 7), {}),
            # ten plies from the end of a game with a pass among them; depth 11 reaches every end
            ("moves c4 c3 c2 c5 c6 e3 f6 b7 e2 f3 d6 e1 a8 e6 f4 g5 g4 f5 h4 d3 g3 g2 h1 f2 d1 h6 d7 d2 h5 "
             "c1 g1 e7 h7 b3 d8 c7 b1 c8 a3 a4 b4 a5 a6 g6 f1 f8 b5 h2 g7 h3 e8", range(1, 12), {}),
            ("moves f5 f4 c3 d6 g4 e3 d7 c7 d3 e7 e2 g3 e6 e1 f1 h4 d1 g6 f6 c4 d8 b3 g5 c5 f7 h6 d2 c2 b5 "
             "e8 f2 c6 f8 g7 f3 g1 b4 a4 a3 a2 h3 b2 g8 h8 b8 c1 c8 a8 b6 b7", range(1, 12), {}),
        ],
    },
    "draughts": {
        "about": [
            "English draughts (checkers): 8x8, a1 dark, black (first) on the dark squares of ranks 1-3,",
            "white on ranks 6-8. Captures are compulsory, a multi-jump is one move (from, then every",
            "landing square), a man crowned by a move stops there, a side without a move loses.",
            f"Start counts: {BIK_CHECKERS} (7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, ...;",
            "distinct jump paths counted apart, as here). No draw rule is reached at these depths.",
        ],
        "entries": [
            ("start", range(1, 10), {"Bik": {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740, 8: 845931, 9: 3963680}}),
            # six kings, each side
            ("moves a3b4 f6e5 c3d4 e5c3 b2d4 d6c5 b4d6 e7c5 d2c3 d8e7 e3f4 c5e3 f2d4 c7d6 c3b4 e7f6 d4c5 "
             "b6d4 e1d2 f8e7 b4c5 d6b4 f4e5 b4c3 d2b4 f6g5 b4a5 b8c7 e5f6 g7e5 a1b2 d4e3 b2a3 e5f4 g3e5 "
             "h8g7 h2g3 g7f6 e5g7 c7b6 a5c7 e3d2 c1e3 g5f4 e3g5 h6f4h2 g1f2 e7d6 f2e3 d6e5 e3f4 e5g3 a3b4 "
             "a7b6 b4a5 g3f2 g7f8 b6c5 a5b6 c5d4 f8e7 d4c3 e7f6 h2g1 f6e7 c3b2 e7d6 g1h2 d6e7 b2c1 e7d8 "
             "f2g1 c7b8 g1f2 b8c7 h2g3 d8e7 g3h2 c7b8 f2g1 e7f8 h2g3 b6c7 g3h4 f8g7 c1b2 g7h6 b2c1 h6g7 "
             "h4g5 g7f6 g5e7 b8a7 g1f2 c7d8 c1b2", range(1, 8), {}),
            # a king each side, jumps about
            ("moves c3b4 f6e5 b4c5 d6b4 a3c5 b6d4 e3c5 g7f6 d2c3 h6g5 c3d4 e5c3 b2d4 h8g7 g3f4 g5e3 e1d2 "
             "f6g5 d2f4h6 c7b6 c1d2 e7f6 f2g3 f6g5 a1b2 b8c7 c5d6 c7e5c3a1 g1f2 a1b2 f2e3 d8e7 g3h4 e7d6",
             range(1, 8), {}),
            ("moves c3b4 d6c5 b4d6 e7c5 e3d4 c5e3 d2f4 b6c5 a3b4 c5a3 f4e5 f6d4 b2c3 d4b2 a1c3 d8e7 c3b4 "
             "a7b6 e1d2 b8a7 b4a5 h6g5 g3h4 e7f6 d2e3 b6c5 c1b2 a3c1 e3f4 g5e3 f2d4b6d8 g7h6 h2g3 f8e7 "
             "h4g5", range(1, 9), {}),
        ],
    },
    "breakthrough": {
        "about": [
            "Breakthrough: 8x8, white (first) pawns on ranks 1-2, black on 7-8; a pawn steps straight or",
            "diagonally forward to an empty square and captures diagonally forward; reaching the far",
            f"rank wins, a side with no pieces loses. {FSF_TESTS} has 256036 at depth 4 from the start,",
            "and 121264 at depth 4 from 1p2pp1p/2p2ppp/2P5/8/8/3P2P1/1p1P2PP/1PP1PP1P w (Fairy-Stockfish's",
            "FEN; Arbiter's is not settled, so that position is not a line here: the oracle reproduces",
            "it with `oracle.py perft breakthrough 4 --fen '1p2pp1p/2p2ppp/2P5/8/8/3P2P1/1p1P2PP/1PP1PP1P w 1 26'`).",
        ],
        "entries": [
            ("start", range(1, 6), {"Fairy-Stockfish": {4: 256036}}),
            ("moves b2c3 g7g6 a2b3 d7c6 b1b2 f7e6 f2e3 e7f6 g2h3 e6d5 c3b4 b7b6 e3d4 a7a6 h3h4 f8e7 d4c5 "
             "e8d7 h2h3 g6h5 a1a2 g8f7 e1f2 b8b7 h1g2 c7d6 f2f3 b6a5 c5d6 a5a4 a2a3 a4b3 g1h2 f6f5 a3a4 "
             "d7e6 f3g4 c6b5 d6d7 h7g6 a4a5 f5e4 d2c3 h8h7 f1f2 e6e5 g2f3 c8c7 e2d3 c7b6 h2g3 b7c6 f2e3 "
             "d5c4 a5b6 e5f4 e3f4 h5g4 b6a7 c4d3 h4h5 g6h5 d1d2 b3c2 f3e4 g4f3 f4e5 f7e6 c3d4 d8c7",
             range(1, 6), {}),
            ("moves c2d3 g7g6 f2g3 b7c6 d3d4 g6g5 e2d3 g5g4 f1e2 a8b7 g2f3 a7a6 e1f2 c7d6 f3e4 c6d5 c1c2 "
             "g8g7 e4e5 f7f6 f2e3 e8f7 e3e4 g4f3 b2c3 d5c4 g3g4 b8a7 e5f6 d7e6 h1g2 a6a5 g2h3 g7f6 a2b3 "
             "b7b6 h3h4 f3e2 a1b2 c8d7 b1a2 d6d5 g1g2", range(1, 5), {}),
        ],
    },
    "crazyhouse": {
        "about": [
            "Crazyhouse: chess with captured pieces in hand (FEN [hand], promoted pieces Q~), drops P@e4.",
            f"Published counts: {SHAKMATY} (the positions from 2k5 on, and zh-promoted, written",
            f"there as 4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b); {FSF_TESTS} has the same three and startpos 4.",
            "The last three positions are from seeded random games of pyffish, for pieces in hand on",
            "both sides and promoted pieces of both colours (b~ on a1, Q~, N~ and b~). Fairy-Stockfish's",
            "depth 5 from the start, 4888832, was checked once apart (6 minutes, past the budget).",
        ],
        "entries": [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", range(1, 6),
             {"Fairy-Stockfish": {4: 197281}, "chess, as no drop can come before ply 5": {1: 20, 2: 400, 3: 8902, 4: 197281}}),
            ("2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", range(1, 3), {"shakmaty": {1: 301, 2: 75353}}),
            ("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", range(1, 5), {"shakmaty": {1: 67, 2: 3083, 3: 88634, 4: 932554}}),
            ("r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1", range(1, 5),
             {"shakmaty": {1: 42, 2: 1347, 3: 58057, 4: 2083382}}),
            ("4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1", range(1, 5), {"shakmaty": {1: 20, 2: 360, 3: 5445, 4: 132758}}),
            ("r3k2r/p1p1p1n1/2P2pq1/nq1p2bp/2P2PbR/2PP1N2/1P2KR2/b~1B2B2[Pnpp] w kq - 0 26", range(1, 4), {}),
            ("r3Q~2r/2p2p2/p1k2n1p/n3p3/n3P1P1/PPp1b1PP/1BPPK1B1/1R1Q3R[QBnp] b - - 0 23", range(1, 4), {}),
            ("1N~k2N2/2r5/RPN5/p2p1pq1/3PQPp1/PPb1PN1B/1P1R4/1NBK1b~1R[PPbp] w - - 0 51", range(1, 4), {}),
        ],
    },
    "hex": {
        "about": [
            "Hex: 11x11, files a-k, ranks 1-11; (f, r) touches (f+-1, r), (f, r+-1), (f+1, r-1), (f-1, r+1).",
            "The first player joins rank 1 to rank 11, the second file a to file k; no swap. From the",
            "start no game ends before ply 21: perft(n) = 121! / (121 - n)!. The other positions are a few",
            "plies before the end of seeded random games, so that wins fall among the leaves.",
        ],
        "entries": [
            ("start", range(1, 4), {"121!/(121-n)!": {1: 121, 2: 14520, 3: 1727880}}),
            ("moves j8 e4 i9 k5 e9 a4 d10 g2 g1 f1 j9 k6 d6 g11 e3 h6 c5 g8 b6 d7 b7 k4 b11 i7 d4 h8 k2 i8 "
             "c1 e6 b2 a9 k8 f3 h4 j1 b4 f8 h11 f2 k3 d2 j4 i2 h7 j2 e2 a7 k11 a10 b8 h5 a1 j7 g5 e8 g6 b3 "
             "c2 k1 g10 c6 c8 j11 b9 j5 g4 f4 a8 b1 e10 h1 g9 b5 e11 i11 e1 c11 i5 f5 i6", range(1, 5), {}),
            ("moves c7 g9 g3 b4 e4 h4 f7 h9 h2 a7 h8 a10 k8 g1 d3 h3 d1 c4 j8 g4 h7 i10 g5 f2 j3 c1 d2 j6 "
             "c10 i2 f5 a11 k5 b1 c5 j7 a6 e8 a4 e5 i5 k4 g7 h6 h1 k6 i4 c3 g2 b7 a8 c9 k10 e11 f10 j11 f9 "
             "j10 f1 j4 d9 g10 d7 f8 h10 e3 h5 c2 d8 j2 a2 d4 i8 k1 k3 b8 k9 e2 i6 j1 j5 b2 d10 k2 e10 e7 "
             "b5 b10 j9 k11 a5 d5 i3 a9 e9 b6 a1 e1 f6 g11 b9 b11 b3 h11 g6", range(1, 5), {}),
            ("moves b5 g6 k1 j4 j1 a7 d10 b4 g10 j5 f5 f9 i2 e7 k3 c6 b11 g5 a2 f11 g1 i4 k8 a1 k10 g4 d8 "
             "k7 d3 i7 b7 e6 a4 a3 a6 k5 i6 a11 g3 d7 h3 a9 j11 e10 h8 i9 k11 e2 g7 e3 e11 i8 f6 a8 i11 c2 "
             "d6 g2 b8 i1 d5 k4 i10 h9 f7 f1 g11 k9 i3 c4 d4 d2 h6 h1 h11 f2 j2 b1 h2 d1 f8 g9 c5 f4 k2 g8 "
             "b6 j3 k6 c1 h7 b9 e8 j8 d9 d11 f10 j9 a10 h10 b10 e1 j7 f3 c3 c7 e5 c10", range(1, 5), {}),
        ],
    },
}


def root_node(eng, position):
    if position == "start":
        return eng.root()
    if position.startswith("moves "):
        return play_line(eng, eng.root(), position.split()[1:])
    return eng.root(position)


def level_counts(counts):
    """Positions visited by a bulk-counting perft to depth d: those at depths 0..d-1."""
    visited, total = {}, 1
    for d in sorted(counts):
        visited[d] = total
        total += counts[d]
    return visited


def generate(game):
    spec = SPEC[game]
    oracles = list(GAMES[game]) + list(COUNT_ONLY.get(game, {}))
    # open_spiel first: it is fast, and its counts size the slow oracles' work
    oracles.sort(key=lambda o: o != "open_spiel")
    lines = [f"# {line}" for line in spec["about"]]
    lines += [
        "# Computed by tests/oracles/make_perft_data.py; each position's comment says which oracle",
        "# computed which depths (all that computed a count agree, and agree with the published ones).",
        "stop-at-end",
    ]
    for position, depths, published in spec["entries"]:
        counts, by = {}, {}
        for oracle in oracles:
            eng = engine(game, oracle, count_only=True)
            node = root_node(eng, position)
            visited = level_counts(counts) if counts else {}
            done = []
            for d in depths:
                if oracle in BUDGET and visited.get(d, 0) > BUDGET[oracle]:
                    continue
                if oracle in BUDGET and d not in visited and counts:
                    continue
                start = time.time()
                n = perft(eng, node, d)
                spent = time.time() - start
                if d in counts and counts[d] != n:
                    raise SystemExit(f"{game} {position} depth {d}: {oracle} {n}, earlier {counts[d]}")
                counts[d] = n
                done.append(d)
                print(f"  {game} depth {d}: {n} by {oracle} ({spent:.1f} s)", file=sys.stderr)
            if done:
                by[oracle] = done
        for source, values in published.items():
            for d, n in values.items():
                if d in counts and counts[d] != n:
                    raise SystemExit(f"{game} {position} depth {d}: {counts[d]}, published ({source}) {n}")
        notes = [f"{o} {span(ds)}" for o, ds in by.items()]
        notes += [f"published ({s}) {span(sorted(d for d in v if d in counts))}" for s, v in published.items()]
        lines.append("# " + "; ".join(notes))
        lines.append(" ; ".join([position] + [f"{d} {counts[d]}" for d in depths]))
    return "\n".join(lines) + "\n"


def span(ds):
    ds = list(ds)
    if not ds:
        return "-"
    return f"{ds[0]}-{ds[-1]}" if len(ds) > 1 and ds == list(range(ds[0], ds[-1] + 1)) else ",".join(map(str, ds))


def main(args):
    check = "--check" in args
    games = [a for a in args if not a.startswith("--")] or list(SPEC)
    status = 0
    for game in games:
        start = time.time()
        text = generate(game)
        path = os.path.join(ROOT, "tests", "perft", f"{game}.txt")
        if check:
            same = False
            if os.path.exists(path):
                with open(path) as f:
                    same = f.read() == text
            print(f"{game}: {'same' if same else 'DIFFERENT'} ({time.time() - start:.0f} s)")
            status |= not same
        else:
            with open(path, "w") as f:
                f.write(text)
            print(f"{game}: wrote {path} ({time.time() - start:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
