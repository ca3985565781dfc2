"""Tapatan, played by brute force straight from its rules: the reference behind `oracle.py serve
tapatan` (no engine of PyPI plays it). It shares no code with Arbiter or with the other oracles;
selftest checks it against a second implementation written independently (bit masks instead of
names), and README.md keeps the game-tree counts both give.

The rules as implemented:

- The board is the nine points a1..c3 of a 3x3 square (files a-c from the left, ranks 1-3 from
  the first player's side). Its lines are the three ranks, the three files and the two long
  diagonals a1-b2-c3 and a3-b2-c1.
- White (the first player) moves first. Each player has three men in hand. While the player to
  move still has a man in hand, the turn places one on an empty point: the move is the point
  (`b2`). Once both hands are empty (after six placements) a turn moves an own man one step along
  a line to an adjacent empty point: to an orthogonal neighbour, or diagonally between a corner
  and b2 (the only diagonal steps the lines allow); the move is from+to (`a1b2`).
- A player who makes three own men on one line wins at once (while placing too).
- A player to move who has no legal move loses.
- A position (the men on the board and the side to move) that occurs for the third time is a draw.

A node is an immutable tuple (board, side, hands, seen): board a 9-character string over
`.wb` in the order a1 b1 c1 a2 ... c3, side `w` or `b`, hands (white's, black's), seen the
positions (board, side) so far, the current one included.
"""

POINTS = [f"{f}{r}" for r in "123" for f in "abc"]
INDEX = {p: i for i, p in enumerate(POINTS)}

LINES = [
    ("a1", "b1", "c1"), ("a2", "b2", "c2"), ("a3", "b3", "c3"),  # ranks
    ("a1", "a2", "a3"), ("b1", "b2", "b3"), ("c1", "c2", "c3"),  # files
    ("a1", "b2", "c3"), ("a3", "b2", "c1"),  # the long diagonals
]

# Adjacent points: consecutive points of a line.
STEPS = {p: set() for p in POINTS}
for line in LINES:
    for x, y in zip(line, line[1:]):
        STEPS[x].add(y)
        STEPS[y].add(x)


def root():
    board = "." * 9
    return (board, "w", (3, 3), ((board, "w"),))


def other(side):
    return "b" if side == "w" else "w"


def has_line(board, side):
    return any(all(board[INDEX[p]] == side for p in line) for line in LINES)


def moves(node):
    """The legal moves of the side to move, whether or not the game has ended."""
    board, side, hands, _ = node
    in_hand = hands[0] if side == "w" else hands[1]
    if in_hand > 0:
        return [p for p in POINTS if board[INDEX[p]] == "."]
    out = []
    for p in POINTS:
        if board[INDEX[p]] == side:
            out += [p + q for q in sorted(STEPS[p]) if board[INDEX[q]] == "."]
    return out


def status(node):
    board, side, _, seen = node
    mover = other(side)  # the side that made the last move
    if has_line(board, mover):
        return "win:first" if mover == "w" else "win:second"
    if not moves(node):
        return "win:first" if side == "b" else "win:second"
    if seen.count((board, side)) >= 3:
        return "draw"
    return "ongoing"


def legal(node):
    return moves(node) if status(node) == "ongoing" else []


def apply(node, move):
    board, side, hands, seen = node
    cells = list(board)
    if len(move) == 2:
        cells[INDEX[move]] = side
        hands = (hands[0] - 1, hands[1]) if side == "w" else (hands[0], hands[1] - 1)
    else:
        cells[INDEX[move[:2]]] = "."
        cells[INDEX[move[2:]]] = side
    board = "".join(cells)
    side = other(side)
    return (board, side, hands, seen + ((board, side),))
