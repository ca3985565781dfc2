"""Plays complete games against a UCI engine with python-chess's engine module, checking every
move it receives with python-chess's own rules.

    python3 tests/oracles/uci_games.py GAMES -- COMMAND...

Prints `ok GAMES PLIES` when every move the engine sent was legal; exits 1 naming the first that
was not (or the engine's failure).
"""

import sys

import chess
import chess.engine


def main():
    if "--" not in sys.argv or len(sys.argv) < 4:
        raise SystemExit(__doc__)
    split = sys.argv.index("--")
    games = int(sys.argv[1])
    command = sys.argv[split + 1:]
    plies = 0
    with chess.engine.SimpleEngine.popen_uci(command, timeout=30) as engine:
        for g in range(games):
            board = chess.Board()
            # Half the games from a position with castling, en passant and promotion close by.
            if g % 2 == 1:
                board = chess.Board("r3k2r/1P1ppp1p/8/2pP4/8/8/PPP2P1P/R3K2R w KQkq c6 0 1")
            while not board.is_game_over(claim_draw=True) and board.ply() < 300:
                limit = chess.engine.Limit(time=0.005) if board.ply() % 2 else chess.engine.Limit(nodes=20)
                result = engine.play(board, limit)
                if result.move is None or result.move not in board.legal_moves:
                    raise SystemExit(f"error: game {g}, ply {board.ply()}: the engine sent {result.move} in {board.fen()}")
                board.push(result.move)
                plies += 1
    print("ok", games, plies)


if __name__ == "__main__":
    main()
