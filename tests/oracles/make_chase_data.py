#!/usr/bin/env python3
"""Finds xiangqi repetition cycles that Fairy-Stockfish rules as a perpetual chase (or check), for
the data of tests/chase.rs (tests/chase/fsf-cycles.txt).

    python3 tests/oracles/make_chase_data.py [--seed N] [--positions N] [--wins N] [--draws N]

Seeded random sparse positions (both generals, a few pieces a side); in each, cycles of four
moves that go and come back (m1 m2, then both undone) are played twice, and pyffish's ruling on
the third occurrence is read. Cycles it rules a win for one side (a chase or a check it forbids)
are kept, and a few it rules a draw. The output is the data file's `fen`/`cycle` lines, with
pyffish's ruling as a comment; the data file's cases were taken from it as printed (seed 1), and
tests/chase.rs asks pyffish again rather than trusting the comment.
"""

import argparse
import random
import sys

sys.dont_write_bytecode = True

import pyffish as sf  # noqa: E402

V = "xiangqi"
FILES = "abcdefghi"


def sq(f, r):
    return "%s%d" % (FILES[f], r + 1)


def fen_of(board, stm):
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, r))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + " %s - - 0 1" % stm


def squares_for(piece, red, rng):
    """Squares a piece of this kind may stand on (red's view, mirrored for black)."""
    k = piece.upper()
    if k == "K":
        cand = [(f, r) for f in (3, 4, 5) for r in (0, 1, 2)]
    elif k == "A":
        cand = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
    elif k == "B":
        cand = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
    elif k == "P":
        cand = [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 4)] + [(f, r) for f in range(9) for r in range(5, 10)]
    else:
        cand = [(f, r) for f in range(9) for r in range(10)]
    if not red:
        cand = [(f, 9 - r) for f, r in cand]
    return cand


def random_position(rng):
    board = {}
    for red in (True, False):
        k = "K" if red else "k"
        board[rng.choice([s for s in squares_for(k, red, rng) if s not in board])] = k
        for _ in range(rng.randint(1, 3)):
            p = rng.choice("RRNNCCPAB")
            p = p if red else p.lower()
            free = [s for s in squares_for(p, red, rng) if s not in board]
            board[rng.choice(free)] = p
    return board


def rev(m):
    # a1b2 / a10b10: split where the second file letter starts
    i = next(j for j in range(1, len(m)) if m[j].isalpha())
    return m[i:] + m[:i]


def cycles(fen, rng, tries):
    out = []
    first = sf.legal_moves(V, fen, [])
    rng.shuffle(first)
    for m1 in first[:tries]:
        if sf.is_capture(V, fen, [], m1):
            continue
        second = sf.legal_moves(V, fen, [m1])
        rng.shuffle(second)
        for m2 in second[:tries]:
            if sf.is_capture(V, fen, [m1], m2):
                continue
            r1, r2 = rev(m1), rev(m2)
            if r1 not in sf.legal_moves(V, fen, [m1, m2]) or r2 not in sf.legal_moves(V, fen, [m1, m2, r1]):
                continue
            out.append([m1, m2, r1, r2])
    return out


def ruling(fen, line):
    ended, value = sf.is_optional_game_end(V, fen, line)
    if not ended:
        return "ongoing"
    if value == 0:
        return "draw"
    return "win:first" if value > 0 else "win:second"  # red to move after an even number of plies


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--wins", type=int, default=40)
    ap.add_argument("--draws", type=int, default=12)
    ap.add_argument("--tries", type=int, default=8)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    wins, draws = [], []
    for _ in range(a.positions):
        board = random_position(rng)
        fen = fen_of(board, "w")
        if sf.validate_fen(fen, V) != sf.FEN_OK:
            continue
        # Neither general attacked, no generals facing: the setup is a position that can occur.
        if sf.gives_check(V, fen, []) or sf.gives_check(V, fen_of(board, "b"), []):
            continue
        if not sf.legal_moves(V, fen, []):
            continue
        for c in cycles(fen, rng, a.tries):
            line = c * 2
            if ruling(fen, line[:-1]) != "ongoing":
                continue
            r = ruling(fen, line)
            checks = [sf.gives_check(V, fen, line[: i + 1]) for i in range(4)]
            entry = (fen, c, r, checks)
            if r.startswith("win") and len(wins) < a.wins:
                wins.append(entry)
                break
            if r == "draw" and len(draws) < a.draws and rng.random() < 0.02:
                draws.append(entry)
                break
        if len(wins) >= a.wins and len(draws) >= a.draws:
            break
    for fen, c, r, checks in wins + draws:
        which = ", ".join("check" if x else "-" for x in checks)
        print("# pyffish: %s (checks: %s)" % (r, which))
        print("fen %s" % fen)
        print("cycle %s" % " ".join(c))
        print()
    print("# %d wins, %d draws" % (len(wins), len(draws)), file=sys.stderr)


if __name__ == "__main__":
    main()
