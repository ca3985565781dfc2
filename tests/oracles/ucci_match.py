"""Plays xiangqi games between two UCCI engines, Arbiter and Fairy-Stockfish (Debian's
`fairy-stockfish`, speaking UCCI after `ucci`), as a referee: each engine is told the game in UCCI
(`position fen … moves …`, squares with ranks from 0) and answers `go` with `bestmove`; every move
is checked with pyffish (Fairy-Stockfish's own rules) before the other engine is told it. After
each game the position Arbiter reports (`d`) must match pyffish's.

    python3 tests/oracles/ucci_match.py GAMES FAIRY_STOCKFISH -- ARBITER_COMMAND...

Prints `ok GAMES PLIES` when every move either engine sent was legal and both accepted the other's
moves; exits 1 naming the first failure.
"""

import subprocess
import sys
import time

import pyffish

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
MAX_PLIES = 160


def to_uci(move):
    """`h2e2` (UCCI, ranks from 0) as pyffish writes it, `h3e3` (ranks from 1)."""
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


class Engine:
    def __init__(self, name, command):
        self.name = name
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.said = []

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix, timeout=60):
        """Lines up to the first starting with `prefix`; that line."""
        began = time.time()
        while time.time() - began < timeout:
            line = self.proc.stdout.readline()
            if not line:
                fail(f"{self.name} ended; it said: {self.said[-5:]}")
            line = line.strip()
            self.said.append(line)
            # Arbiter refuses a move it is told with `info string` and the ruling.
            if line.startswith("info string") and "illegal" in line:
                fail(f"{self.name} refused a move: {line}")
            if line.startswith(prefix):
                return line
        fail(f"{self.name} did not answer `{prefix}` within {timeout} s")

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def fail(message):
    print("error:", message)
    sys.exit(1)


def main():
    if "--" not in sys.argv or len(sys.argv) < 5:
        raise SystemExit(__doc__)
    split = sys.argv.index("--")
    games = int(sys.argv[1])
    fsf = Engine("Fairy-Stockfish", [sys.argv[2]])
    arbiter = Engine("Arbiter", sys.argv[split + 1:])
    for e in (fsf, arbiter):
        e.send("ucci")
        e.until("ucciok")
    plies = 0
    for g in range(games):
        # Arbiter plays red in the even games.
        players = (arbiter, fsf) if g % 2 == 0 else (fsf, arbiter)
        moves = []
        while len(moves) < MAX_PLIES:
            uci_moves = [to_uci(m) for m in moves]
            legal = pyffish.legal_moves("xiangqi", START, uci_moves)
            if not legal:
                break
            ended, _ = pyffish.is_optional_game_end("xiangqi", START, uci_moves)
            if ended:
                break
            engine = players[len(moves) % 2]
            engine.send("position fen " + START + (" moves " + " ".join(moves) if moves else ""))
            engine.send("go depth 2" if engine is fsf else "go time 3000 increment 0")
            best = engine.until("bestmove").split()
            move = best[1] if len(best) > 1 else "(none)"
            if len(move) != 4 or to_uci(move) not in legal:
                fail(f"game {g}, ply {len(moves)}: {engine.name} sent `{move}` after {' '.join(moves)}")
            moves.append(move)
        plies += len(moves)
        # The position Arbiter reaches by the whole game's moves is Fairy-Stockfish's.
        arbiter.send("position fen " + START + (" moves " + " ".join(moves) if moves else ""))
        arbiter.send("d")
        said = arbiter.until("info string").split()[2]
        expected = pyffish.get_fen("xiangqi", START, [to_uci(m) for m in moves]).split()[0]
        if said != expected:
            fail(f"game {g}: Arbiter's board {said} is not pyffish's {expected}")
    for e in (fsf, arbiter):
        e.close()
    print("ok", games, plies)


if __name__ == "__main__":
    main()
