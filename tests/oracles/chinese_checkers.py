#!/usr/bin/env python3
"""Chinese checkers' reference for Arbiter's tests: open_spiel's `chinese_checkers` (installed by
scripts/setup) plays seeded random games of 2, 3, 4 or 6 players, and at the start of every turn
prints the position and every move the whole turn can make (a hop chain, which open_spiel plays as
one action per hop and a pass, taken together from the hole it starts on to the hole it ends on).

    chinese_checkers.py turns PLAYERS GAMES SEED MAX_TURNS

One line per turn: `FEN ; MOVE MOVE ...`, the position as a FEN of rulesets/chinese-checkers.rules
and each move as its start and end hole (`m5m7`), sorted; a turn with no move but the pass prints
`pass`. A game that ends prints `end WINNER` (the winner's FEN letter, or `-` for none).

open_spiel numbers the 121 holes row by row from its top point, in doubled columns; Arbiter's board
is a 17 × 17 board of hexes, files a..q and ranks 1..17, with open_spiel's top point at rank 1:
row `r`, column `c` is rank r + 1, file number (c - r - 4) / 2 + 9.
"""

import random
import sys

sys.dont_write_bytecode = True

# open_spiel's seats (triangles round the star from its top point) for each number of players,
# and Arbiter's letters for the six seats in the same order.
SLOTS = {2: [0, 3], 3: [0, 2, 4], 4: [0, 1, 3, 4], 6: [0, 1, 2, 3, 4, 5]}
LETTERS = "roygbv"
FILES = "abcdefghijklmnopq"


def holes():
    """open_spiel's hole index -> (file 0..16, rank 0..16), from its rendering."""
    import pyspiel

    state = pyspiel.load_game("chinese_checkers").new_initial_state()
    out = []
    for r, line in enumerate(str(state).splitlines()[:17]):
        for c, ch in enumerate(line):
            if ch != " ":
                out.append(((c - r - 4) // 2 + 8, r))
    assert len(out) == 121, len(out)
    return out


def name(sq):
    return f"{FILES[sq[0]]}{sq[1] + 1}"


def fen(state, players, where):
    letters = [LETTERS[s] for s in SLOTS[players]]
    board = {}
    for i, sq in enumerate(where):
        owner = state.board_at(i) if hasattr(state, "board_at") else None
        if owner is None:
            owner = owner_from_text(state, i, where)
        if owner >= 0:
            board[sq] = letters[owner]
    rows = []
    for rank in range(16, -1, -1):
        row, empty = "", 0
        for f in range(17):
            if (f, rank) in board:
                if empty:
                    row += str(empty)
                    empty = 0
                row += board[(f, rank)] + "M"
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + " " + letters[state.current_player()] + " - - 0 1"


def owner_from_text(state, i, where):
    """The owner of hole `i` (-1: empty) read from the rendering (players shown as 1..6)."""
    cells = [ch for line in str(state).splitlines()[:17] for ch in line if ch != " "]
    ch = cells[i]
    return -1 if ch == "." else int(ch) - 1


def turns(state, where):
    """Every whole turn from `state`: {(start, end): [actions]}."""
    me = state.current_player()
    out = {}

    def walk(s, start, acts):
        for a in s.legal_actions():
            c = s.child(a)
            if a == 726:
                if start is not None:
                    out.setdefault((start, s_end(s)), acts + [a])
                continue
            src = a // 6
            first = start if start is not None else src
            if c.is_terminal() or c.current_player() != me or "hopping" not in str(c).splitlines()[-1]:
                out.setdefault((first, moved_to(s, c, where)), acts + [a])
            else:
                walk(c, first, acts + [a])

    def s_end(s):
        line = str(s).splitlines()[-1]
        return int(line.split("hopping from ")[1].rstrip(")"))

    walk(state, None, [])
    return out


def moved_to(before, after, where):
    """The hole a marble arrived in."""
    b = [ch for line in str(before).splitlines()[:17] for ch in line if ch != " "]
    a = [ch for line in str(after).splitlines()[:17] for ch in line if ch != " "]
    return next(i for i in range(121) if b[i] == "." and a[i] != ".")


def main():
    import pyspiel

    players, games, seed, max_turns = (int(x) for x in sys.argv[2:6])
    where = holes()
    rng = random.Random(seed)
    game = pyspiel.load_game("chinese_checkers", {"players": players})
    for _ in range(games):
        state = game.new_initial_state()
        for _ in range(max_turns):
            if state.is_terminal():
                break
            whole = turns(state, where)
            moves = sorted(name(where[f]) + name(where[t]) for (f, t) in whole if f != t)
            print(fen(state, players, where) + " ; " + (" ".join(moves) if moves else "pass"))
            if not whole or all(f == t for (f, t) in whole):
                state.apply_action(726)
                continue
            pick = rng.choice(sorted(k for k in whole if k[0] != k[1]))
            for a in whole[pick]:
                state.apply_action(a)
        if state.is_terminal():
            r = state.returns()
            best = max(range(players), key=lambda p: r[p])
            print("end " + (LETTERS[SLOTS[players][best]] if r[best] > 0 else "-"))
        print("game")


if __name__ == "__main__" and sys.argv[1:2] == ["turns"]:
    main()
