"""The oracle engines behind oracle.py, each wrapped to speak Arbiter's notation.

Every engine is an independent implementation installed from PyPI by scripts/setup:
open_spiel (module pyspiel), pyffish (Fairy-Stockfish), pydraughts (module draughts) and
python-chess (module chess); tapatan.py beside this file is a brute-force reference of our own
for a game no package plays. An engine works on opaque, immutable nodes:

    root(fen)          the start position (or a FEN, where the engine reads one)
    legal(node)        [(arbiter_move, native_move), ...]; empty once the game has ended
    apply(node, nat)   the node after a native move (a new node; the old one is untouched)
    status(node)       'ongoing', 'win:first', 'win:second' or 'draw'

Square names follow Arbiter: file letter + rank number, files a.. from the left, rank 1 on the
first player's side. README.md beside this file gives each mapping and how selftest proves it.
"""

import importlib
import re

FILES = "abcdefghijklmnopqrstuvwxyz"


class OracleError(Exception):
    """An input the oracle cannot play (illegal move, bad FEN, missing package)."""


def sq(file_index, rank):
    """Square name from a 0-based file index and a 1-based rank."""
    return f"{FILES[file_index]}{rank}"


def parse_sq(name):
    """(0-based file index, 1-based rank) of a square name such as 'c10'."""
    return FILES.index(name[0]), int(name[1:])


def _import(module):
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise OracleError(f"python module {module} is missing ({e}); run scripts/setup") from None


# --------------------------------------------------------------------------------------------
# open_spiel


class OpenSpiel:
    """A game of open_spiel whose player 0 is Arbiter's first player (true of every game here)."""

    oracle = "open_spiel"

    def __init__(self, game, params=None):
        self.pyspiel = _import("pyspiel")
        self.game = self.pyspiel.load_game(game, params or {})

    def root(self, fen=None):
        if fen is not None:
            raise OracleError(f"{self.oracle} {self.game} does not read a FEN here")
        return self.game.new_initial_state()

    def name(self, state, action):
        raise NotImplementedError

    def legal(self, state):
        if state.is_terminal():
            return []
        return [(self.name(state, a), a) for a in state.legal_actions()]

    def apply(self, state, action):
        return state.child(action)

    def status(self, state):
        if not state.is_terminal():
            return "ongoing"
        r = state.returns()
        return "win:first" if r[0] > r[1] else "win:second" if r[1] > r[0] else "draw"


class OsTicTacToe(OpenSpiel):
    # action = row * 3 + column; row 0 is printed on top, so it is rank 3.
    def __init__(self):
        super().__init__("tic_tac_toe")

    def name(self, state, action):
        return sq(action % 3, 3 - action // 3)


class OsConnectFour(OpenSpiel):
    # action = column (0..6 -> a..g); the node carries the column heights to name the resting square.
    def __init__(self):
        super().__init__("connect_four")

    def root(self, fen=None):
        return (super().root(fen), (0,) * 7)

    def legal(self, node):
        state, heights = node
        if state.is_terminal():
            return []
        return [(sq(a, heights[a] + 1), a) for a in state.legal_actions()]

    def apply(self, node, action):
        state, heights = node
        h = list(heights)
        h[action] += 1
        return (state.child(action), tuple(h))

    def status(self, node):
        return super().status(node[0])


class OsOthello(OpenSpiel):
    # open_spiel's own names (d3, pass) already are Arbiter's: its start has black on d5/e4.
    def __init__(self):
        super().__init__("othello")

    def name(self, state, action):
        return state.action_to_string(state.current_player(), action)


class OsHex(OpenSpiel):
    # action = row * 11 + column; row r is rank r + 1, column c is file c. Player 0 joins row 0 to
    # row 10 (rank 1 to rank 11), player 1 joins column 0 to column 10 (file a to file k).
    def __init__(self, size=11):
        super().__init__("hex", {"board_size": size})
        self.size = size

    def name(self, state, action):
        return sq(action % self.size, action // self.size + 1)


class OsBreakthrough(OpenSpiel):
    # open_spiel's player 0 ("black") starts on its ranks 7-8 and moves first: rank r is
    # Arbiter's rank 9 - r, files unchanged (a reflection, so adjacency and direction hold).
    def __init__(self):
        super().__init__("breakthrough")

    def name(self, state, action):
        s = state.action_to_string(state.current_player(), action).rstrip("*")
        return f"{s[0]}{9 - int(s[1])}{s[2]}{9 - int(s[3])}"


class OsCheckers(OpenSpiel):
    """open_spiel checkers. Its squares are Arbiter's (a1 dark, player 0 on ranks 1-3, moves first).
    Each jump of a multi-jump is an action of its own; a node is a position at the start of a turn
    and legal() joins the jumps into one move: from, then every landing square."""

    def __init__(self):
        super().__init__("checkers")

    def legal(self, state):
        if state.is_terminal():
            return []
        mover = state.current_player()
        out = []

        def walk(st, text, actions):
            for a in st.legal_actions():
                s = st.action_to_string(mover, a)
                child = st.child(a)
                t = (text or s[:2]) + s[2:]
                if not child.is_terminal() and child.current_player() == mover:
                    walk(child, t, actions + (a,))
                else:
                    out.append((t, actions + (a,)))

        walk(state, "", ())
        return out

    def apply(self, state, actions):
        for a in actions:
            state = state.child(a)
        return state


class OsCrazyhouse(OpenSpiel):
    """open_spiel crazyhouse, used to cross-check counts only: its moves are SAN, and its FEN
    writes promoted pieces as letters of their own (N~ B~ R~ Q~ -> H A C E)."""

    PROMOTED = {"N": "H", "B": "A", "R": "C", "Q": "E"}

    def __init__(self):
        super().__init__("crazyhouse")

    def root(self, fen=None):
        if fen is None:
            return self.game.new_initial_state()
        board, rest = fen.split(" ", 1)
        out = []
        for ch in board:
            if ch == "~":
                prev = out.pop()
                out.append(self.PROMOTED[prev.upper()] if prev.isupper() else self.PROMOTED[prev.upper()].lower())
            else:
                out.append(ch)
        try:
            return self.game.new_initial_state("".join(out) + " " + rest)
        except Exception as e:  # open_spiel raises its own error type
            raise OracleError(f"open_spiel rejects the FEN: {e}") from None

    def name(self, state, action):
        return state.action_to_string(state.current_player(), action)


class OsClobber(OpenSpiel):
    # open_spiel clobber loaded with rows=6, columns=5 (its default is 5 rows of 6) gives Fairy-
    # Stockfish's 5x6 board, but its player 0 (moving first) starts on a1, c1, e1, b2, ...: its
    # rank r is Arbiter's rank 7 - r (a reflection; clobber's moves have no direction).
    def __init__(self):
        super().__init__("clobber", {"rows": 6, "columns": 5})

    def name(self, state, action):
        s = state.action_to_string(state.current_player(), action)
        return f"{s[0]}{7 - int(s[1])}{s[2]}{7 - int(s[3])}"


class OsY(OpenSpiel):
    # action = x + y * size is the cell of file x, rank y + 1 (cells with x + y < size, i.e. file +
    # rank <= size + 1 counted from 1); open_spiel's own names (a1 .. s1, a19) agree.
    def __init__(self, board_size=19):
        super().__init__("y", {"board_size": board_size})
        self.size = board_size

    def name(self, state, action):
        return sq(action % self.size, action // self.size + 1)


class OsHavannah(OpenSpiel):
    # open_spiel's cell (x, y), action x + y * D with D = 2N - 1 (N = board_size), is a cell when |x - y| < N;
    # its neighbours are (x±1, y), (x, y±1), (x+1, y+1), (x-1, y-1); it names the cell letter x + (y + 1).
    # Here (x, y) is file x, rank D - y (a reflection of ranks, as in breakthrough): the neighbours become
    # (f±1, r), (f, r±1), (f+1, r-1), (f-1, r+1) and the cells those of N + 1 <= file + rank <= 3N - 1
    # (files counted from 1). Its player 0 moves first; no swap rule.
    def __init__(self, board_size=4):
        super().__init__("havannah", {"board_size": board_size})
        self.diameter = 2 * board_size - 1

    def name(self, state, action):
        return sq(action % self.diameter, self.diameter - action // self.diameter)


class OsLinesOfAction(OpenSpiel):
    # open_spiel's names (b1-b3, a capture c1xa3) are Arbiter's without the '-' or 'x'. Its player 0
    # ("x", on ranks 1 and 8) moves first. Status is open_spiel's own, its draws included: a board
    # seen before (whoever is to move) and the 1000th ply end the game drawn (README.md).
    def __init__(self):
        super().__init__("lines_of_action")

    def name(self, state, action):
        s = state.action_to_string(state.current_player(), action)
        return s[:2] + s[3:]


# --------------------------------------------------------------------------------------------
# Fairy-Stockfish (pyffish)

# Fairy-Stockfish's own definitions from its variants.ini (not built into pyffish's binary).
FSF_CONFIG = """
[tictactoe]
maxRank = 3
maxFile = 3
immobile = p
startFen = 3/3/3[PPPPPpppp] w - - 0 1
pieceDrops = true
doubleStep = false
castling = false
stalemateValue = draw
immobilityIllegal = false
connectN = 3

[cfour]
maxRank = 6
maxFile = 7
immobile = p
startFen = 7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1
pieceDrops = true
enclosingDrop = top
doubleStep = false
castling = false
stalemateValue = draw
immobilityIllegal = false
connectN = 4
nMoveRule = 0
"""

_fsf_loaded = False


class Fsf:
    """A pyffish variant. Nodes are (FEN, moves so far); pyffish replays the moves on each call.
    White (the FEN's 'w') is Arbiter's first player in every variant used here. Each pyffish call
    costs about 1.4 ms whatever it does (it re-initialises the variant), so keep perft depths small.

    Moves are Arbiter's as pyffish writes them (name() changes them only for the stone-placing games,
    FsfDrop and flipello, and for ataxx): UCI with castling as the king's two-square move, drops `K@e1` (crazyhouse, placement),
    gating as a suffix (seirawan `b1c3h`), and a move followed by a second action after a comma
    (duck-chess `e2e4,e4d5`: the duck to d5; isolation `c1c2,c2d5`: d5 removed; amazons
    `d1d5,d5d1`: the queen to d5, its arrow to d1).

    Status: a game ends when pyffish reports an immediate end (a line of N, a piece on its flag
    rank, a king captured or exploded, the third check, ataxx's full board or second pass in a row)
    or when the side to move has no legal move (then game_result rules). Optional ends
    (Fairy-Stockfish's 50-move rule and repetition, both claimable in chess) are not reported."""

    oracle = "fairy-stockfish"

    def __init__(self, variant, immediate_ends=True):
        global _fsf_loaded
        self.sf = _import("pyffish")
        if not _fsf_loaded:
            self.sf.load_variant_config(FSF_CONFIG)
            _fsf_loaded = True
        if variant not in self.sf.variants():
            raise OracleError(f"pyffish has no variant {variant}")
        self.variant = variant
        self.immediate_ends = immediate_ends

    def root(self, fen=None):
        if fen is None:
            fen = self.sf.start_fen(self.variant)
        else:
            fen = fen.strip()
            code = self.sf.validate_fen(fen, self.variant)
            if code != self.sf.FEN_OK:
                raise OracleError(f"pyffish rejects the FEN (code {code})")
        parts = fen.split()
        if len(parts) < 2 or parts[1] not in ("w", "b"):
            raise OracleError("the FEN has no side to move")
        return (fen, ())

    def name(self, m):
        return m

    def _ended(self, node):
        """None while the game goes on, else the result for the side to move (>0 win, <0 loss, 0 draw)."""
        fen, moves = node
        if self.immediate_ends:
            ended, result = self.sf.is_immediate_game_end(self.variant, fen, list(moves))
            if ended:
                return result
        return None

    def legal(self, node):
        # pyffish lists no move once the game has ended, an immediate end included (selftest
        # checks this), so one call suffices here; status() asks about the end explicitly.
        fen, moves = node
        return [(self.name(m), m) for m in self.sf.legal_moves(self.variant, fen, list(moves))]

    def apply(self, node, m):
        return (node[0], node[1] + (m,))

    def status(self, node):
        fen, moves = node
        result = self._ended(node)
        if result is None:
            if self.sf.legal_moves(self.variant, fen, list(moves)):
                return "ongoing"
            result = self.sf.game_result(self.variant, fen, list(moves))
        if result == 0:
            return "draw"
        first_to_move = (fen.split()[1] == "w") == (len(moves) % 2 == 0)
        return "win:first" if (result > 0) == first_to_move else "win:second"


class FsfDrop(Fsf):
    """Placement games written as drops of one piece kind: 'P@b2' is Arbiter's 'b2'."""

    def name(self, m):
        return m.split("@", 1)[1]


class FsfFlipello(Fsf):
    # Fairy-Stockfish's flipello starts with its first player ('w', uppercase) on d4/e5: its rank r
    # is Arbiter's rank 9 - r. A pass is written from = to (for example a1a1).
    def __init__(self):
        super().__init__("flipello")

    def name(self, m):
        if "@" not in m:
            return "pass"
        s = m.split("@", 1)[1]
        return f"{s[0]}{9 - int(s[1:])}"


class FsfAtaxx(Fsf):
    # A jump (two squares away) is from+to as Fairy-Stockfish writes it (g1e1); a new stone next to an own
    # one, its drop P@f2, is the square alone (f2). A side with stones but no move must pass, which
    # Fairy-Stockfish writes from = to on the mover's lowest stone (a1a1; c1c1 if a1, b1 hold none): `pass`.
    def __init__(self):
        super().__init__("ataxx")

    def name(self, m):
        if "@" in m:
            return m.split("@", 1)[1]
        half = re.fullmatch(r"([a-z][0-9]+)([a-z][0-9]+)", m)
        return "pass" if half and half.group(1) == half.group(2) else m


# --------------------------------------------------------------------------------------------
# pydraughts


def draughts_square(n):
    """Arbiter's square for square n (1..32) of pydraughts' English board (its public numbering:
    black, the first player, starts on 1-12). Row (n-1)//4 is rank 1 + that; within a rank the
    numbers run from the h side: rank 1 is 1=g1 2=e1 3=c1 4=a1, rank 2 is 5=h2 6=f2 7=d2 8=b2."""
    i, k = divmod(n - 1, 4)
    rank = i + 1
    file_index = 6 - 2 * k if rank % 2 == 1 else 7 - 2 * k
    return sq(file_index, rank)


def russian_square(n):
    """Arbiter's square for square n (1..32) of pydraughts' Russian board (its public numbering, in
    its moves and numeric FENs: white, the first player, starts on 1-12). Row (n-1)//4 is rank 1 +
    that; within a rank the numbers run from the a side over the dark squares (a1 dark): rank 1 is
    1=a1 2=c1 3=e1 4=g1, rank 2 is 5=b2 6=d2 7=f2 8=h2. pydraughts' own algebraic names agree."""
    i, k = divmod(n - 1, 4)
    return sq(2 * k + i % 2, i + 1)


def turkish_square(n):
    """Arbiter's square for square n (1..64) of pydraughts' Turkish board (all 64 squares; white, the
    first player, starts on 9-24 = ranks 2-3): n = 8 (rank - 1) + file index + 1, so 1=a1 .. 8=h1,
    9=a2 .. 64=h8. pydraughts' own algebraic names agree."""
    i, k = divmod(n - 1, 8)
    return sq(k, i + 1)


class Pydraughts:
    """pydraughts through its public Board API: English (the default), Russian or Turkish draughts.
    A move is from + every landing square, each leg's landing as pydraughts gives it (a flying king
    lands where the player chooses, and each choice is a move of its own). Status follows Arbiter's
    rule only: the side to move without a legal move loses. pydraughts' own draw rules (threefold
    repetition; English: 40 moves each of kings without a capture; Russian: 15 moves each of kings
    and its endgame counts; Turkish: one piece each) are not reported."""

    oracle = "pydraughts"

    # variant: (square of a public number, the first player: pydraughts' BLACK (1) or WHITE (2))
    VARIANTS = {"english": (draughts_square, 1), "russian": (russian_square, 2), "turkish": (turkish_square, 2)}

    def __init__(self, variant="english"):
        self.draughts = _import("draughts")
        self.variant = variant
        self.square, self.first = self.VARIANTS[variant]

    def root(self, fen=None):
        try:
            return self.draughts.Board(self.variant, fen or "startpos")
        except Exception as e:
            raise OracleError(f"pydraughts rejects the FEN: {e}") from None

    def legal(self, board):
        out = []
        for m in board.legal_moves():
            steps = m.steps_move
            if self.variant == "turkish" and not m.captures and self._passes_a_piece(board, steps):
                continue
            out.append(("".join(self.square(s) for s in steps), m))
        return out

    def _passes_a_piece(self, board, steps):
        """Does a plain (non-capturing) move pass over a piece? pydraughts 0.6.7 lets a Turkish king's
        plain move fly over pieces of either colour (its orthogonal move generator never looks at the
        squares in between, unlike its diagonal one); no draughts game allows it, so such moves are
        dropped (README.md, "Where the oracles' rules differ")."""
        (f0, r0), (f1, r1) = (parse_sq(self.square(steps[0])), parse_sq(self.square(steps[-1])))
        df, dr = (f1 > f0) - (f1 < f0), (r1 > r0) - (r1 < r0)
        f, r = f0 + df, r0 + dr
        taken = self._occupied(board)
        while (f, r) != (f1, r1):
            if (f, r) in taken:
                return True
            f, r = f + df, r + dr
        return False

    def _occupied(self, board):
        """The squares (0-based file, 1-based rank) holding a piece, from pydraughts' FEN."""
        out = set()
        # pydraughts' FEN: `W:Wb2,Ka3:Ba6` — the side to move, then each colour's squares (Turkish
        # squares by their algebraic names, which are Arbiter's; numbers in the other variants).
        for part in board.fen.split(":")[1:]:
            for tok in part[1:].split(","):
                tok = tok.strip().lstrip("K")
                if tok.isdigit():
                    out.add(parse_sq(self.square(int(tok))))
                elif tok:
                    out.add(parse_sq(tok))
        return out

    def apply(self, board, m):
        # From the position's FEN rather than board.copy(): the copy drags the whole history along
        # (it serves only pydraughts' draw rules, which are not reported) and costs far more.
        child = self.draughts.Board(self.variant, board.fen)
        child.push(m)
        return child

    def status(self, board):
        if board.legal_moves():
            return "ongoing"
        return "win:second" if board.turn == self.first else "win:first"


# --------------------------------------------------------------------------------------------
# python-chess


class PyChess:
    """A board class of python-chess's chess.variant (AntichessBoard, AtomicBoard, ThreeCheckBoard),
    the cross-check of Fairy-Stockfish's variant of the same rules. Its UCI is Fairy-Stockfish's
    (castling e1g1, promotion e7e8q, antichess's e7e8k), and it reads Fairy-Stockfish's FENs of these
    variants (three-check's `3+3`, the checks each side has still to give, and lichess's `+0+0`,
    the checks given, after the move numbers).

    Status: the variant's own end (a side without pieces or stalemated in antichess, a king
    exploded, the third check), else no legal move: checkmate loses, stalemate draws. python-chess's
    other ends (insufficient material, the 75-move rule, fivefold repetition) are not reported.

    no_castling (antichess): python-chess's AntichessBoard castles where a FEN grants the right;
    Fairy-Stockfish's antichess, like lichess, never castles, so the rights are dropped."""

    oracle = "python-chess"

    def __init__(self, board_class, no_castling=False):
        self.chess = _import("chess")
        self.cls = getattr(_import("chess.variant"), board_class)
        self.no_castling = no_castling

    def root(self, fen=None):
        try:
            board = self.cls(fen.strip()) if fen is not None else self.cls()
        except ValueError as e:
            raise OracleError(f"python-chess rejects the FEN: {e}") from None
        if self.no_castling:
            board.castling_rights = self.chess.BB_EMPTY
        return board

    def legal(self, board):
        if board.is_variant_end():
            return []
        return [(m.uci(), m) for m in board.legal_moves]

    def apply(self, board, m):
        child = board.copy(stack=False)
        child.push(m)
        return child

    def status(self, board):
        mover_first = board.turn == self.chess.WHITE  # the side to move
        if board.is_variant_loss():
            lost = True
        elif board.is_variant_win():
            lost = False
        elif board.is_variant_draw():
            return "draw"
        elif any(True for _ in board.generate_legal_moves()):
            return "ongoing"
        elif board.is_check():
            lost = True
        else:
            return "draw"
        return "win:second" if lost == mover_first else "win:first"


# --------------------------------------------------------------------------------------------
# tapatan.py: our own brute-force reference


class Tapatan:
    """tapatan.py, played straight from the rules written in it (moves: a point while placing, from+to
    after). Nodes are its immutable tuples."""

    oracle = "reference"

    def __init__(self):
        import tapatan

        self.t = tapatan

    def root(self, fen=None):
        if fen is not None:
            raise OracleError("tapatan takes no FEN")
        return self.t.root()

    def legal(self, node):
        return [(m, m) for m in self.t.legal(node)]

    def apply(self, node, m):
        return self.t.apply(node, m)

    def status(self, node):
        return self.t.status(node)


# --------------------------------------------------------------------------------------------
# Which engines speak for which game: the first is the oracle, the others cross-check.

GAMES = {
    "tic-tac-toe": {"open_spiel": OsTicTacToe, "fairy-stockfish": lambda: FsfDrop("tictactoe")},
    "connect-four": {"open_spiel": OsConnectFour, "fairy-stockfish": lambda: FsfDrop("cfour")},
    "othello": {"open_spiel": OsOthello, "fairy-stockfish": FsfFlipello},
    "draughts": {"pydraughts": Pydraughts, "open_spiel": OsCheckers},
    "breakthrough": {"fairy-stockfish": lambda: Fsf("breakthrough"), "open_spiel": OsBreakthrough},
    "crazyhouse": {"fairy-stockfish": lambda: Fsf("crazyhouse", immediate_ends=False)},
    "hex": {"open_spiel": OsHex},
    "antichess": {"fairy-stockfish": lambda: Fsf("antichess"), "python-chess": lambda: PyChess("AntichessBoard", no_castling=True)},
    "atomic": {"fairy-stockfish": lambda: Fsf("atomic"), "python-chess": lambda: PyChess("AtomicBoard")},
    "three-check": {"fairy-stockfish": lambda: Fsf("3check"), "python-chess": lambda: PyChess("ThreeCheckBoard")},
    "duck-chess": {"fairy-stockfish": lambda: Fsf("duck")},
    "isolation": {"fairy-stockfish": lambda: Fsf("isolation")},
    "seirawan": {"fairy-stockfish": lambda: Fsf("seirawan")},
    "clobber": {"fairy-stockfish": lambda: Fsf("clobber"), "open_spiel": OsClobber},
    "russian-draughts": {"pydraughts": lambda: Pydraughts("russian")},
    "turkish-draughts": {"pydraughts": lambda: Pydraughts("turkish")},
    "y": {"open_spiel": OsY},
    "lines-of-action": {"open_spiel": OsLinesOfAction},
    "tapatan": {"reference": Tapatan},
    "ataxx": {"fairy-stockfish": FsfAtaxx},
    "amazons": {"fairy-stockfish": lambda: Fsf("amazons")},
    "placement": {"fairy-stockfish": lambda: Fsf("placement")},
    "havannah": {"open_spiel": OsHavannah},
}

# Engines that count but do not speak Arbiter's notation (used by perft cross-checks only).
COUNT_ONLY = {"crazyhouse": {"open_spiel": OsCrazyhouse}}

# Parameters a game takes (`--param KEY=VALUE`), with their defaults; every oracle of the game takes them.
PARAMS = {"y": {"board_size": 19}, "havannah": {"board_size": 4}}


def engine(game, oracle=None, count_only=False, params=None):
    if game not in GAMES:
        raise OracleError(f"unknown game {game} (one of: {', '.join(GAMES)})")
    table = dict(GAMES[game])
    if count_only:
        table.update(COUNT_ONLY.get(game, {}))
    if oracle is None:
        oracle = next(iter(table))
    if oracle not in table:
        raise OracleError(f"{game} has no oracle {oracle} (one of: {', '.join(table)})")
    known = PARAMS.get(game, {})
    for key in params or {}:
        if key not in known:
            raise OracleError(f"{game} takes no parameter {key}" + (f" (only {', '.join(known)})" if known else ""))
    return table[oracle](**(params or {}))


def play_line(eng, node, moves):
    """The node after moves given in Arbiter notation; OracleError names the first bad one."""
    for i, m in enumerate(moves):
        table = dict(eng.legal(node))
        if m not in table:
            if not table:
                raise OracleError(f"move {i + 1} ({m}): the game is over ({eng.status(node)})")
            raise OracleError(f"move {i + 1} ({m}) is not legal")
        node = eng.apply(node, table[m])
    return node


def perft(eng, node, depth):
    """Leaves at depth; a finished game has no children (it counts only when it is at depth)."""
    if depth == 0:
        return 1
    moves = eng.legal(node)
    if depth == 1:
        return len(moves)
    return sum(perft(eng, eng.apply(node, nat), depth - 1) for _, nat in moves)
