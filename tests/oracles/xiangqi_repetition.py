#!/usr/bin/env python3
"""Fairy-Stockfish's ruling on xiangqi repetitions (perpetual check and perpetual chase, the
Asian rules it implements), for tests/chase.rs.

    python3 tests/oracles/xiangqi_repetition.py serve

One request a line on standard input: `FEN ; M1 M2 ...` (Arbiter's FEN and coordinates, which
for xiangqi are Fairy-Stockfish's own); one answer a line, flushed at once: `ok STATUS` where
STATUS is `win:first` (red wins), `win:second`, `draw` or `ongoing`, read from
pyffish.is_optional_game_end after the moves (a repetition is an "optional" end there: the rules
are applied on the third occurrence, as in Arbiter). A request that cannot be played gets
`error REASON`; the process never stops on bad input.
"""

import sys

sys.dont_write_bytecode = True


def ruling(sf, fen, moves):
    legal_fen = sf.validate_fen(fen, "xiangqi")
    if legal_fen != sf.FEN_OK:
        return "error unreadable FEN (pyffish code %d)" % legal_fen
    for i, m in enumerate(moves):
        if m not in sf.legal_moves("xiangqi", fen, moves[:i]):
            return "error move %d (%s) is not legal" % (i + 1, m)
    ended, value = sf.is_optional_game_end("xiangqi", fen, moves)
    if not ended:
        return "ok ongoing"
    if value == 0:
        return "ok draw"
    # The value is from the side to move's view.
    red_to_move = (fen.split()[1] == "w") == (len(moves) % 2 == 0)
    stm_wins = value > 0
    return "ok win:first" if stm_wins == red_to_move else "ok win:second"


def main():
    if sys.argv[1:] != ["serve"]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        import pyffish as sf
    except ImportError:
        for _ in sys.stdin:
            print("error pyffish is not installed (run scripts/setup)", flush=True)
        return 0
    for line in sys.stdin:
        fen, _, moves = line.partition(";")
        try:
            print(ruling(sf, fen.strip(), moves.split()), flush=True)
        except Exception as e:  # pyffish raises on some malformed input
            print("error %s" % e, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
