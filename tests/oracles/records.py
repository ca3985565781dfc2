"""Reads a game record with an independent reader and prints every line of its tree.

    python3 tests/oracles/records.py pgn FILE    # python-chess
    python3 tests/oracles/records.py sgf FILE    # sgfmill

First `fen FEN` (PGN: the position after the main line) or `size N` and `board ROWS` (SGF: the
board after the main line), and `tag NAME VALUE` for the tags other programs read; then one output
line per leaf of the record's tree: the moves from the start to that leaf, space
separated, the main line first. PGN moves are printed in UCI coordinates (as python-chess reads the
SAN), SGF moves as GTP points (`D4`, `pass`). A record the reader finds errors in (an illegal or
ambiguous SAN move, say) makes it print `error: ...` on stderr and exit 1.

What the record says besides its moves comes as further lines, a tab between their fields, each
comment's whitespace made single spaces:
    header NAME<TAB>VALUE            every PGN header, or SGF game information on the root
    game<TAB>COMMENT                 the game comment (PGN before the first move, SGF root C)
    note PATH<TAB>NAGS<TAB>COMMENT   a move with a comment or glyphs: PATH the moves from the start
                                     to it, NAGS sorted and comma separated (SGF's TE/BM/IT/DO as
                                     their NAGs: TE[1] 1, TE[2] 3, BM[1] 2, BM[2] 4, IT 5, DO 6)
    start PATH<TAB>COMMENT           a comment before a variation's first move (python-chess's
                                     starting_comment; SGF: a node without a move before it)
"""

SGF_INFO = ("PB", "PW", "BR", "WR", "BT", "WT", "DT", "GN", "EV", "RO", "PC", "RE", "SO", "US", "AN", "GC",
            "ON", "CP", "RU")


def flat(text):
    return " ".join(text.split())


def note(path, nags, comment):
    if nags or comment:
        nag_text = ",".join(str(n) for n in sorted(set(nags)))
        print(f"note {' '.join(path)}\t{nag_text}\t{flat(comment or '')}")


import re
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
            path = moves + [child.move.uci()]
            note(path, child.nags, child.comment)
            if flat(child.starting_comment):
                print(f"start {' '.join(path)}\t{flat(child.starting_comment)}")
            walk(child, path)

    # python-chess keeps a header's escapes (`\"`, `\\`) as written: PGN's own unescaping here.
    for name, value in game.headers.items():
        value = re.sub(r"\\(.)", r"\1", value)
        print(f"header {name}\t{value}")
    if flat(game.comment):
        print(f"game\t{flat(game.comment)}")
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
    assessments = {("TE", "1"): 1, ("TE", "2"): 3, ("BM", "1"): 2, ("BM", "2"): 4}

    def walk(node, moves, pending):
        colour, point = node.get_move()
        comment = node.get("C") if node.has_property("C") else ""
        if colour is not None:
            moves = moves + ["pass" if point is None else f"{GTP_LETTERS[point[1]]}{point[0] + 1}"]
            nags = []
            for prop in ("TE", "BM"):
                if node.has_property(prop):
                    nags.append(assessments.get((prop, str(node.get(prop))), 1 if prop == "TE" else 2))
            nags += [5] if node.has_property("IT") else []
            nags += [6] if node.has_property("DO") else []
            note(moves, nags, comment)
            if pending:
                print(f"start {' '.join(moves)}\t{pending}")
            pending = ""
        elif node is not root and flat(comment):
            pending = flat(comment)
        if len(node) == 0:
            out.append(" ".join(moves))
        for child in node:
            walk(child, moves, pending)

    root = game.get_root()
    for prop in SGF_INFO:
        if root.has_property(prop):
            print(f"header {prop}\t{root.get(prop)}")
    if root.has_property("C") and flat(root.get("C")):
        print(f"game\t{flat(root.get('C'))}")
    walk(root, [], "")
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
