"""Reads a game record with an independent reader and prints every line of its tree.

    python3 tests/oracles/records.py pgn FILE    # python-chess
    python3 tests/oracles/records.py sgf FILE    # sgfmill

First `fen FEN` (PGN: the position after the main line) or `size N` and `board ROWS` (SGF: the
board after the main line), and `tag NAME VALUE` for the tags other programs read; then one output
line per leaf of the record's tree: the moves from the start to that leaf, space
separated, the main line first. PGN moves are printed in UCI coordinates (as python-chess reads the
SAN), SGF moves as GTP points (`D4`, `pass`). A record the reader finds errors in (an illegal or
ambiguous SAN move, say) makes it print `error: ...` on stderr and exit 1.
"""

import sys


def pgn_lines(path):
    import chess.pgn

    with open(path, encoding="utf-8") as f:
        game = chess.pgn.read_game(f)
    if game is None:
        raise SystemExit("error: no game in the record")
    if game.errors:
        raise SystemExit(f"error: {game.errors[0]}")
    out = []

    def walk(node, moves):
        if not node.variations:
            out.append(" ".join(moves))
        for child in node.variations:
            walk(child, moves + [child.move.uci()])

    walk(game, [])
    # The first leaf reached is the main line's: python-chess keeps the main line as variation 0.
    print("fen", game.end().board().fen())
    for tag in ("Variant", "Termination", "Result"):
        if tag in game.headers:
            print("tag", tag, game.headers[tag])
    return out


GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def sgf_lines(path):
    from sgfmill import sgf

    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    size = game.get_size()
    out = []

    def walk(node, moves):
        colour, point = node.get_move()
        if colour is not None:
            moves = moves + ["pass" if point is None else f"{GTP_LETTERS[point[1]]}{point[0] + 1}"]
        if len(node) == 0:
            out.append(" ".join(moves))
        for child in node:
            walk(child, moves)

    walk(game.get_root(), [])
    print("size", size)
    # The board after the main line, as sgfmill plays it (captures included): rows top first,
    # `X` black, `O` white, `.` empty.
    from sgfmill import boards, sgf_moves

    board, plays = sgf_moves.get_setup_and_moves(game)
    for colour, point in plays:
        if point is not None:
            board.play(point[0], point[1], colour)
    rows = []
    for row in range(size - 1, -1, -1):
        rows.append("".join({"b": "X", "w": "O", None: "."}[board.get(row, col)] for col in range(size)))
    print("board", "/".join(rows))
    root = game.get_root()
    for prop in ("RU", "KM", "RE"):
        if root.has_property(prop):
            print("tag", prop, root.get(prop))
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("pgn", "sgf"):
        raise SystemExit(__doc__)
    lines = pgn_lines(sys.argv[2]) if sys.argv[1] == "pgn" else sgf_lines(sys.argv[2])
    for line in lines:
        print("line", line)


if __name__ == "__main__":
    main()
