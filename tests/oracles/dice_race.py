"""Dice race (rulesets/dice-race.rules), played by brute force straight from its rules: a
reference of our own for a game of chance (no engine of PyPI plays it). It shares no code with
Arbiter; tests/perft/dice-race.txt keeps the counts it gives.

The rules as implemented:

- The board is ten squares a1..e1 and a2..e2. White's track runs a1 b1 c1 d1 e1 e2 d2 c2 b2 a2;
  black's runs the other way round the same ring, a2 b2 c2 d2 e2 e1 d1 c1 b1 a1.
- Each player starts with three runners in hand; white moves first.
- A turn starts with a throw of one four-sided die (1 to 4, each as likely). The throw is a node
  of the game tree of its own: the position before it has one child per number, written
  `roll:N`.
- After the throw N the player to move either enters a runner from the hand onto the N-th square
  of its track, if that square is empty (written as the square, `c1`), or moves one of its runners
  on the board N squares on along its track (written from+to, `a1d1`), if the track goes on that
  far and the square is not its own runner's. A runner that lands on an enemy runner sends it back
  to its owner's hand.
- A player with neither passes (`pass`).
- A runner that reaches the last square of its own track wins at once for its player; the game
  then has no further moves.

A node is a tuple (board, side, hands, roll): board a dict square -> 'w' or 'b', side 'w' or 'b',
hands (white's, black's), roll None while the side to move is still to throw.
"""

import sys

RING = ["a1", "b1", "c1", "d1", "e1", "e2", "d2", "c2", "b2", "a2"]
TRACKS = {
    "w": RING,
    "b": ["a2", "b2", "c2", "d2", "e2", "e1", "d1", "c1", "b1", "a1"],
}
FACES = [1, 2, 3, 4]


def start():
    return ({}, "w", (3, 3), None)


def other(side):
    return "b" if side == "w" else "w"


def won(node):
    """Has the player who moved last (not the side to move) a runner on its track's last square?"""
    board, side, _, _ = node
    mover = other(side)
    return board.get(TRACKS[mover][-1]) == mover


def moves(node):
    """The legal moves as (text, child) pairs."""
    board, side, hands, roll = node
    if roll is None:
        return [(f"roll:{n}", (board, side, hands, n)) for n in FACES]
    track = TRACKS[side]
    out = []
    hand = hands[0 if side == "w" else 1]
    entry = track[roll - 1]
    if hand > 0 and entry not in board:
        b = dict(board)
        b[entry] = side
        h = list(hands)
        h[0 if side == "w" else 1] -= 1
        out.append((entry, (b, other(side), tuple(h), None)))
    for i, sq in enumerate(track):
        if board.get(sq) != side or i + roll >= len(track):
            continue
        to = track[i + roll]
        if board.get(to) == side:
            continue
        b = dict(board)
        h = list(hands)
        if b.get(to) == other(side):
            h[1 if side == "w" else 0] += 1
        del b[sq]
        b[to] = side
        out.append((sq + to, (b, other(side), tuple(h), None)))
    if not out:
        out.append(("pass", (board, other(side), hands, None)))
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
    # dice_race.py DEPTH [MOVE...]: perft 1..DEPTH after the moves, as a perft data line.
    depth = int(sys.argv[1])
    line = sys.argv[2:]
    node = play(line)
    where = "start" if not line else "moves " + " ".join(line)
    print(where + "".join(f" ; {d} {perft(node, d)}" for d in range(1, depth + 1)))
