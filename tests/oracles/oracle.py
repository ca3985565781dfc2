#!/usr/bin/env python3
"""Arbiter's test oracle: independent engines (open_spiel, Fairy-Stockfish, pydraughts, python-chess,
and tapatan.py of our own) answering in Arbiter's notation. See README.md beside this file.

    oracle.py serve GAME [--oracle NAME] [--param KEY=VALUE ...]   line protocol on stdin/stdout (below)
    oracle.py perft GAME DEPTH [--fen FEN] [--moves "M1 M2 ..."] [--oracle NAME] [--param KEY=VALUE ...] [--divide]
    oracle.py selftest [--quick]                  mapping and cross-oracle checks; exit 1 on failure
    oracle.py available                           the oracle packages and their versions; exit 1 if one is missing

--param sets a game's parameter (y: board_size, default 19; havannah: board_size, default 4). serve
reads lines `moves M1 M2 ...` (moves from the game's start; the list may be empty) or, for FEN-reading
games (FEN_GAMES below, Fairy-Stockfish's FEN), `fen FEN ; M1 M2 ...`, and answers each with one line:
`ok STATUS MOVE ...` (STATUS: ongoing, win:first, win:second, draw; the legal moves sorted by bytes,
none once the game has ended) or `error REASON`. It flushes after each line and exits on end of input.
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ left in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engines import GAMES, PARAMS, OracleError, engine, perft, play_line  # noqa: E402

# Games whose `fen` requests and --fen take Fairy-Stockfish's FEN of the variant.
FEN_GAMES = ("crazyhouse", "breakthrough", "antichess", "atomic", "three-check", "duck-chess", "isolation", "seirawan",
             "ataxx", "amazons", "placement")


def usage(msg=None):
    if msg:
        print(f"oracle: {msg}", file=sys.stderr)
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    sys.exit(2)


def take_option(args, name, default=None):
    if name in args:
        i = args.index(name)
        if i + 1 >= len(args):
            usage(f"{name} needs a value")
        value = args[i + 1]
        del args[i : i + 2]
        return value
    return default


def take_params(args):
    """The --param KEY=VALUE options, each value converted to the type of the parameter's default."""
    params = {}
    while "--param" in args:
        text = take_option(args, "--param")
        key, sep, value = text.partition("=")
        if not sep:
            usage(f"--param {text}: expected KEY=VALUE")
        params[key] = value
    return params


def typed_params(game, params):
    known = PARAMS.get(game, {})
    out = {}
    for key, value in params.items():
        if key in known:
            try:
                value = type(known[key])(value)
            except ValueError:
                raise OracleError(f"--param {key}={value}: {key} takes an integer") from None
        out[key] = value
    return out


def take_flag(args, name):
    if name in args:
        args.remove(name)
        return True
    return False


def parse_request(game, line):
    """(fen or None, [moves]) of one protocol line."""
    line = line.strip()
    if line == "moves" or line.startswith("moves "):
        return None, line[5:].split()
    if line.startswith("fen "):
        if game not in FEN_GAMES:
            raise OracleError(f"{game} takes no FEN here; send `moves ...`")
        fen, sep, moves = line[4:].partition(";")
        if not fen.strip():
            raise OracleError("empty FEN")
        return fen.strip(), moves.split()
    raise OracleError("expected `moves M1 M2 ...`" + (" or `fen FEN ; M1 M2 ...`" if game in FEN_GAMES else ""))


class Session:
    """Answers requests, reusing the nodes of the previous line when the new one extends it (a
    test sending every prefix of a game then costs one step per line)."""

    def __init__(self, game, oracle, params=None):
        self.game = game
        self.oracle = oracle
        self.params = params
        self.eng = None
        self.key = None  # fen of the cached line
        self.line = []  # moves of the cached line
        self.nodes = []  # nodes[i] = after line[:i]

    def answer(self, text):
        if self.eng is None:
            self.eng = engine(self.game, self.oracle, params=typed_params(self.game, self.params or {}))
        fen, moves = parse_request(self.game, text)
        if fen != self.key or not self.nodes:
            self.key, self.line, self.nodes = fen, [], [self.eng.root(fen)]
        common = 0
        while common < min(len(moves), len(self.line)) and moves[common] == self.line[common]:
            common += 1
        self.line, self.nodes = self.line[:common], self.nodes[: common + 1]
        for i in range(common, len(moves)):
            try:
                node = play_line(self.eng, self.nodes[-1], [moves[i]])
            except OracleError as e:
                raise OracleError(str(e).replace("move 1 ", f"move {i + 1} ", 1)) from None
            self.line.append(moves[i])
            self.nodes.append(node)
        node = self.nodes[-1]
        status = self.eng.status(node)
        legal = sorted(name for name, _ in self.eng.legal(node)) if status == "ongoing" else []
        return " ".join(["ok", status] + legal)


def serve(args):
    oracle = take_option(args, "--oracle")
    params = take_params(args)
    if len(args) != 1:
        usage("serve takes one GAME")
    game = args[0]
    # The protocol gets its own copy of stdout; file descriptor 1 is pointed at stderr so that
    # anything an engine's C++ code prints cannot land in the protocol.
    sys.stdout.flush()
    proto = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    session = Session(game, oracle, params)
    while True:
        raw = sys.stdin.readline()
        if not raw:
            break
        try:
            out = session.answer(raw)
        except OracleError as e:
            out = f"error {e}"
        except Exception as e:  # an engine's own failure must not end the session
            out = f"error {type(e).__name__}: {e}"
            session = Session(game, oracle, params)
        try:
            proto.write(" ".join(out.split()) + "\n")
            proto.flush()
        except BrokenPipeError:
            break


def cmd_perft(args):
    fen = take_option(args, "--fen")
    moves = take_option(args, "--moves", "")
    oracle = take_option(args, "--oracle")
    params = take_params(args)
    divide = take_flag(args, "--divide")
    if len(args) != 2:
        usage("perft takes GAME DEPTH")
    game, depth = args[0], int(args[1])
    eng = engine(game, oracle, count_only=True, params=typed_params(game, params))
    node = eng.root(fen)
    if moves.split():
        node = play_line(eng, node, moves.split())
    start = time.time()
    if divide and depth > 0:
        total = 0
        for name, nat in sorted(eng.legal(node), key=lambda x: x[0]):
            n = perft(eng, eng.apply(node, nat), depth - 1)
            total += n
            print(f"{name} {n}")
        print()
    else:
        total = perft(eng, node, depth)
    print(f"# {eng.oracle}, {time.time() - start:.2f} s", file=sys.stderr)
    print(total)


def available(args):
    import importlib.metadata as md

    ok = True
    for module, dist in (("pyspiel", "open_spiel"), ("pyffish", "pyffish"), ("draughts", "pydraughts"), ("chess", "chess")):
        try:
            __import__(module)
            print(f"{dist} {md.version(dist)}")
        except Exception as e:
            ok = False
            print(f"{dist} missing ({e})")
    sys.exit(0 if ok else 1)


def main():
    args = sys.argv[1:]
    if not args:
        usage()
    cmd, rest = args[0], args[1:]
    try:
        if cmd == "serve":
            serve(rest)
        elif cmd == "perft":
            cmd_perft(rest)
        elif cmd == "selftest":
            import selftest

            sys.exit(selftest.main(rest))
        elif cmd == "available":
            available(rest)
        else:
            usage(f"unknown command {cmd} (games: {', '.join(GAMES)})")
    except OracleError as e:
        print(f"oracle: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
