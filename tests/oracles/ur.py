"""The Royal Game of Ur (rulesets/ur.rules), played by brute force straight from its rules: a
reference of our own (no engine of PyPI plays it). It shares no code with Arbiter or with
dice_race.py; tests/perft/ur.txt keeps the counts it gives.

The rules as implemented (Finkel's reconstruction, as commonly played):

- Each player has seven pieces, all off the board at the start; white moves first.
- A player's route is fourteen squares. Numbered 1 to 14 along it: squares 1-4 and 13-14 are the
  player's own (white's: d1 c1 b1 a1, then h1 g1; black's: d3 c3 b3 a3, then h3 g3), squares 5-12
  the shared middle row a2 to h2. Rosettes are route squares 4, 8 and 14 (white's a1, d2, g1;
  black's a3, d2, g3): d2 is shared.
- A turn starts with a throw of four two-sided dice, counting the marked sides up: 0 to 4 with
  chances 1, 4, 6, 4, 1 in 16. The throw is a node of its own, one child per number (`roll:N`).
- After a throw of N > 0 the player either enters a piece from off the board onto route square N,
  if it is empty (written as the square), or moves a piece on its route from square k to square
  k + N (written from+to) if k + N <= 14 and that square does not hold its own piece, or bears a
  piece off from square k with k + N = 15 exactly (written as the square and `off`). A piece that
  lands on an enemy piece sends it off the board, back to its owner; an enemy piece on d2 (the
  central rosette) cannot be landed on.
- A move that lands a piece on a rosette gives the same player another turn (a throw again).
- A player with no such move (a throw of 0 among them) passes.
- The first player to bear off all seven pieces wins; the game then has no further moves.

A node is (board, side, off_board, home, roll, mover): board a dict square -> side, off_board and
home pairs (white's, black's), roll None while the side to move is still to throw, mover the side
that made the last move (for the win, judged after a move).
"""

import sys

ROUTES = {
    "w": ["d1", "c1", "b1", "a1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "h1", "g1"],
    "b": ["d3", "c3", "b3", "a3", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "h3", "g3"],
}
ROSETTES = {"w": {"a1", "d2", "g1"}, "b": {"a3", "d2", "g3"}}
SAFE = "d2"
THROWS = [0, 1, 2, 3, 4]
PIECES = 7


def start():
    return ({}, "w", (PIECES, PIECES), (0, 0), None, "b")


def other(side):
    return "b" if side == "w" else "w"


def idx(side):
    return 0 if side == "w" else 1


def won(node):
    _, _, _, home, _, mover = node
    return home[idx(mover)] == PIECES


def after(board, side, off, home, landed):
    """The node after `side` moved, landing on `landed` (None: nothing landed)."""
    again = landed is not None and landed in ROSETTES[side]
    return (board, side if again else other(side), off, home, None, side)


def moves(node):
    board, side, off, home, roll, mover = node
    if roll is None:
        return [(f"roll:{n}", (board, side, off, home, n, mover)) for n in THROWS]
    route = ROUTES[side]
    out = []
    if roll > 0:
        entry = route[roll - 1]
        if off[idx(side)] > 0 and entry not in board:
            b = dict(board)
            b[entry] = side
            o = list(off)
            o[idx(side)] -= 1
            out.append((entry, after(b, side, tuple(o), home, entry)))
        for k, sq in enumerate(route, start=1):
            if board.get(sq) != side:
                continue
            if k + roll == 15:
                b = dict(board)
                del b[sq]
                h = list(home)
                h[idx(side)] += 1
                out.append((sq + "off", after(b, side, off, tuple(h), None)))
                continue
            if k + roll > 14:
                continue
            to = route[k + roll - 1]
            held = board.get(to)
            if held == side or (held is not None and to == SAFE):
                continue
            b = dict(board)
            o = list(off)
            if held is not None:
                o[idx(held)] += 1
            del b[sq]
            b[to] = side
            out.append((sq + to, after(b, side, tuple(o), home, to)))
    if not out:
        out.append(("pass", (board, other(side), off, home, None, side)))
    return out


def perft(node, depth):
    """Leaves at `depth`, a won position being a leaf (Arbiter's `perft --stop-at-end`)."""
    if won(node):
        return 0
    if depth == 0:
        return 1
    if depth == 1:
        return len(moves(node))
    return sum(perft(child, depth - 1) for _, child in moves(node))


def play(line):
    node = start()
    for text in line:
        found = [c for t, c in moves(node) if t == text]
        if not found:
            raise SystemExit(f"{text} is not legal here")
        node = found[0]
    return node


if __name__ == "__main__":
    # ur.py DEPTH [MOVE...]: perft 1..DEPTH after the moves, as a perft data line.
    depth = int(sys.argv[1])
    line = sys.argv[2:]
    node = play(line)
    where = "start" if not line else "moves " + " ".join(line)
    print(where + "".join(f" ; {d} {perft(node, d)}" for d in range(1, depth + 1)))
