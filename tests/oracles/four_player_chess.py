#!/usr/bin/env python3
"""Four-player chess (teams): a reference move generator of our own, written from the rules alone
(plain Python, standard library only), for Arbiter's tests.

    four_player_chess.py turns GAMES SEED MAX_PLIES
    four_player_chess.py perft FEN DEPTH [--slow]
    four_player_chess.py divide FEN DEPTH
    four_player_chess.py random-positions N SEED PLIES
    four_player_chess.py selftest [--quick]

The board: files a..n, ranks 1..14, less the 3x3 corners. Red (bottom), blue (left), yellow (top)
and green (right) move in that order; red and yellow play against blue and green. A FEN is
`PLACEMENT SIDE CASTLING - 0 FULLMOVE`: ranks 14 down to 1, runs of empty squares (the corners
counting as empty) as numbers, a piece as its player's letter and the piece's capital (`rK`, `bP`);
castling rights as `rKrQbKbQyKyQgKgQ` (or `-`). A move is from+to (`h2h4`), a promotion letter after
(`d10d11q`), castling the king's two-square move (`h1j1`).

`turns` plays GAMES seeded random games (each move picked uniformly from the sorted legal moves by
`random.Random(SEED)`) of at most MAX_PLIES plies and prints, before each move, `FEN ; MOVE MOVE ...`
(every legal move, sorted). A game that ends by the rules prints `end FEN ; RESULT` (`ry`, `bg` or
`draw`): the position after a king capture (the capturer's team wins), or a position whose player
has no legal move (checkmate if in check: that team loses; stalemate otherwise: a draw); this is
also checked on the position reached after the last of the MAX_PLIES plies. A game cut at MAX_PLIES
prints nothing more.

`perft` prints the number of leaves of the legal-move tree DEPTH plies deep; play goes on past a
captured king (its player, then without a king, moves with no safety restriction); `--slow` counts
with the second implementation below (about 100 times slower). `divide` prints
each first move's count, then the total. `random-positions` prints N FENs, each after PLIES random
legal plies of a game not over by then (a game that ends on the way, or whose player to move at the
end has no legal move, is dropped and another played). `selftest` (`--quick`: a shorter run) checks
hand-made positions, and a second, slow implementation (class `Slow`: a dict board, coordinates,
legality by trying every enemy capture; it shares only the board's shape, the step lists and the
castling table) move list by move list along random games; exit status 1 on a failure.

Points the rules leave open, as decided here:
- "Attacked" counts every piece of both enemy players, also those of a player whose king is gone.
- Castling needs only the one square the king passes over unattacked (red's queen side: g1, not e1);
  the landing square is judged as any move is, with the rook already moved.
- A castling right goes with any move from or onto its king's or its rook's start square.
- A FEN's HALFMOVE field may be any number; it is written as 0. A FEN with two kings of one player,
  a piece on a corner, or a castling right without its king and rook at home is refused.
- A pawn on or past its promotion row (only from a FEN) moves on without promoting; only a move
  that lands on that row promotes.
- perft counts no pass: a player without a legal move ends that branch (0 leaves below it).
"""

import random
import re
import sys

sys.dont_write_bytecode = True

# ---------------------------------------------------------------------------------------------
# Board geometry. A square is an index `rank * 14 + file`, both counted from 0.

SIZE = 14
FILES = "abcdefghijklmn"
PLAYERS = "rbyg"  # turn order; player index p, team p & 1 (red and yellow 0, blue and green 1)
TEAM_NAMES = ("ry", "bg")

KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN = 1, 2, 3, 4, 5, 6
KIND_LETTERS = "?KQRBNP"
PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)

# A piece is the integer `player * 8 + kind`; 0 is an empty square.


def code(player, kind):
    return player * 8 + kind


def owner(piece):
    return piece >> 3


def kind_of(piece):
    return piece & 7


def is_square(f, r):
    """Is (file, rank), counted from 0, a square of the board (not off it, not in a corner)?"""
    if not (0 <= f < SIZE and 0 <= r < SIZE):
        return False
    return not ((f < 3 or f > 10) and (r < 3 or r > 10))


def sq_of(f, r):
    return r * SIZE + f


SQUARES = [sq_of(f, r) for r in range(SIZE) for f in range(SIZE) if is_square(f, r)]


def name(sq):
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


def parse_square(text):
    m = re.fullmatch(r"([a-n])([0-9]{1,2})", text)
    if not m:
        raise ValueError(f"not a square: {text!r}")
    f, r = FILES.index(m.group(1)), int(m.group(2)) - 1
    if not is_square(f, r):
        raise ValueError(f"not a square of the board: {text!r}")
    return sq_of(f, r)


# Each player's forward step (file, rank): red up, blue right, yellow down, green left.
FORWARD = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def row_of(player, f, r):
    """How far (f, r) lies from the player's own edge: 0 on the back row, 1 on the pawns' row."""
    return (r, f, SIZE - 1 - r, SIZE - 1 - f)[player]


PAWN_ROW = 1  # pawns may step twice from here
PROMOTION_ROW = 10  # the 11th row: a pawn arriving here promotes

ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT_STEPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def _steps(steps):
    """For every square, the squares one of `steps` away (on the board)."""
    table = [[] for _ in range(SIZE * SIZE)]
    for sq in SQUARES:
        f, r = sq % SIZE, sq // SIZE
        table[sq] = [sq_of(f + df, r + dr) for df, dr in steps if is_square(f + df, r + dr)]
    return table


def _rays(directions):
    """For every square, one list per direction of the squares a slider passes, nearest first,
    ending before the edge or a corner; empty rays are left out."""
    table = [[] for _ in range(SIZE * SIZE)]
    for sq in SQUARES:
        f, r = sq % SIZE, sq // SIZE
        for df, dr in directions:
            ray, x, y = [], f + df, r + dr
            while is_square(x, y):
                ray.append(sq_of(x, y))
                x, y = x + df, y + dr
            if ray:
                table[sq].append(ray)
    return table


KNIGHT_TO = _steps(KNIGHT_STEPS)
KING_TO = _steps(ORTHOGONAL + DIAGONAL)
ORTH_RAYS = _rays(ORTHOGONAL)
DIAG_RAYS = _rays(DIAGONAL)

# Pawns, per player and square: the square ahead (-1 if none), the double step (mid, target) from
# the pawns' row (None elsewhere), the capture targets, whether a square is the promotion row, and
# (the other way round) the squares from which the player's pawns attack a square.
PAWN_PUSH = [[-1] * (SIZE * SIZE) for _ in range(4)]
PAWN_DOUBLE = [[None] * (SIZE * SIZE) for _ in range(4)]
PAWN_CAPTURES = [[[] for _ in range(SIZE * SIZE)] for _ in range(4)]
PAWN_ATTACKERS = [[[] for _ in range(SIZE * SIZE)] for _ in range(4)]
PROMOTES = [[False] * (SIZE * SIZE) for _ in range(4)]
for _p in range(4):
    _df, _dr = FORWARD[_p]
    for _sq in SQUARES:
        _f, _r = _sq % SIZE, _sq // SIZE
        PROMOTES[_p][_sq] = row_of(_p, _f, _r) == PROMOTION_ROW
        if is_square(_f + _df, _r + _dr):
            PAWN_PUSH[_p][_sq] = sq_of(_f + _df, _r + _dr)
            if row_of(_p, _f, _r) == PAWN_ROW and is_square(_f + 2 * _df, _r + 2 * _dr):
                PAWN_DOUBLE[_p][_sq] = (sq_of(_f + _df, _r + _dr), sq_of(_f + 2 * _df, _r + 2 * _dr))
        # the two sideways steps are perpendicular to forward: (dr, df) and its opposite
        for _sf, _sr in ((_dr, _df), (-_dr, -_df)):
            _x, _y = _f + _df + _sf, _r + _dr + _sr
            if is_square(_x, _y):
                PAWN_CAPTURES[_p][_sq].append(sq_of(_x, _y))
                PAWN_ATTACKERS[_p][sq_of(_x, _y)].append(_sq)

# Per team, the pieces of the other team that attack along each kind of line or step.
ENEMY_PLAYERS = [[q for q in range(4) if q & 1 != t] for t in (0, 1)]
ENEMY_ORTH = [frozenset(code(q, k) for q in ENEMY_PLAYERS[t] for k in (QUEEN, ROOK)) for t in (0, 1)]
ENEMY_DIAG = [frozenset(code(q, k) for q in ENEMY_PLAYERS[t] for k in (QUEEN, BISHOP)) for t in (0, 1)]
ENEMY_KNIGHT = [frozenset(code(q, KNIGHT) for q in ENEMY_PLAYERS[t]) for t in (0, 1)]
ENEMY_KING = [frozenset(code(q, KING) for q in ENEMY_PLAYERS[t]) for t in (0, 1)]
ENEMY_PAWN = [[(q, code(q, PAWN)) for q in ENEMY_PLAYERS[t]] for t in (0, 1)]
# Per team, which piece codes may be captured by it (any piece of the other team).
CAPTURABLE = [[c != 0 and (owner(c) & 1) != t for c in range(32)] for t in (0, 1)]

# Castling, as the rules list it: per player, king side then queen side:
# (right bit, king from, king to, rook from, rook to).
_CASTLING_TEXT = {
    "r": (("h1", "j1", "k1", "i1"), ("h1", "f1", "d1", "g1")),
    "b": (("a7", "a5", "a4", "a6"), ("a7", "a9", "a11", "a8")),
    "y": (("g14", "e14", "d14", "f14"), ("g14", "i14", "k14", "h14")),
    "g": (("n8", "n10", "n11", "n9"), ("n8", "n6", "n4", "n7")),
}


def right_bit(player, side):
    """Bit of a castling right; side 0 is king side (K), 1 queen side (Q)."""
    return 1 << (2 * player + side)


# CASTLING[p] = [(bit, king_from, king_to, rook_from, rook_to, between, passed)]: `between` are
# the squares strictly between king and rook (all must be empty), `passed` the square the king
# passes over (it must not be attacked).
CASTLING = [[] for _ in range(4)]
# CLEAR_RIGHTS[sq]: the rights lost by a move that starts or ends on sq (the king's or a rook's
# start square: it moved, or it was captured there).
CLEAR_RIGHTS = [0] * (SIZE * SIZE)
for _p, _letter in enumerate(PLAYERS):
    for _side, (_kf, _kt, _rf, _rt) in enumerate(_CASTLING_TEXT[_letter]):
        _kf, _kt, _rf, _rt = map(parse_square, (_kf, _kt, _rf, _rt))
        _step = (_rf - _kf) // max(abs(_rf % SIZE - _kf % SIZE), abs(_rf // SIZE - _kf // SIZE))
        _between = list(range(_kf + _step, _rf, _step))
        assert _kt == _kf + 2 * _step and _rt == _kf + _step, "castling: king two squares, rook on the one passed"
        _bit = right_bit(_p, _side)
        CASTLING[_p].append((_bit, _kf, _kt, _rf, _rt, _between, _kf + _step))
        CLEAR_RIGHTS[_kf] |= _bit
        CLEAR_RIGHTS[_rf] |= _bit

START_FEN = (
    "3yRyNyByKyQyByNyR3/3yPyPyPyPyPyPyPyP3/14/bRbP10gPgR/bNbP10gPgN/bBbP10gPgB/bQbP10gPgK/"
    "bKbP10gPgQ/bBbP10gPgB/bNbP10gPgN/bRbP10gPgR/14/3rPrPrPrPrPrPrPrP3/3rRrNrBrQrKrBrNrR3"
    " r rKrQbKbQyKyQgKgQ - 0 1"
)


# ---------------------------------------------------------------------------------------------
# Attacks.


def attacked(board, sq, team):
    """Is `sq` attacked by a piece of the team other than `team` (a square it could capture on)?"""
    for s in KNIGHT_TO[sq]:
        if board[s] in ENEMY_KNIGHT[team]:
            return True
    for s in KING_TO[sq]:
        if board[s] in ENEMY_KING[team]:
            return True
    for rays, sliders in ((ORTH_RAYS[sq], ENEMY_ORTH[team]), (DIAG_RAYS[sq], ENEMY_DIAG[team])):
        for ray in rays:
            for s in ray:
                c = board[s]
                if c:
                    if c in sliders:
                        return True
                    break
    for q, pawn in ENEMY_PAWN[team]:
        for s in PAWN_ATTACKERS[q][sq]:
            if board[s] == pawn:
                return True
    return False


# ---------------------------------------------------------------------------------------------
# The position: board, player to move, castling rights, move number, and each player's king
# square (-1 once captured, or if the FEN has none).
#
# A move is a tuple (from, to, promotion kind or 0, rook from or -1, rook to or -1).


class Position:
    __slots__ = ("board", "side", "rights", "fullmove", "kings")

    def __init__(self, fen=START_FEN):
        self.board = [0] * (SIZE * SIZE)
        self.kings = [-1] * 4
        self._read(fen)

    # -- FEN --

    def _read(self, fen):
        fields = fen.split()
        if len(fields) != 6:
            raise ValueError(f"a FEN has 6 fields: {fen!r}")
        placement, side, rights, ep, halfmove, fullmove = fields
        rows = placement.split("/")
        if len(rows) != SIZE:
            raise ValueError(f"the placement has {len(rows)} ranks, not 14")
        for i, row in enumerate(rows):
            r = SIZE - 1 - i
            f = 0
            for m in re.finditer(r"([0-9]+)|([rbyg])([KQRBNP])|(.)", row):
                if m.group(4) is not None:
                    raise ValueError(f"rank {r + 1}: unexpected {m.group(4)!r}")
                if m.group(1) is not None:
                    n = int(m.group(1))
                    if n == 0:
                        raise ValueError(f"rank {r + 1}: an empty run of 0")
                    f += n
                    continue
                if f >= SIZE or not is_square(f, r):
                    raise ValueError(f"rank {r + 1}: a piece off the board (file {f + 1})")
                p, k = PLAYERS.index(m.group(2)), KIND_LETTERS.index(m.group(3))
                if k == KING:
                    if self.kings[p] >= 0:
                        raise ValueError(f"two kings of {PLAYERS[p]}")
                    self.kings[p] = sq_of(f, r)
                self.board[sq_of(f, r)] = code(p, k)
                f += 1
            if f != SIZE:
                raise ValueError(f"rank {r + 1} has {f} files, not 14")
        if side not in ("r", "b", "y", "g"):
            raise ValueError(f"no such player to move: {side!r}")
        self.side = PLAYERS.index(side)
        self.rights = 0
        if rights != "-":
            if not re.fullmatch(r"([rbyg][KQ])+", rights):
                raise ValueError(f"castling rights: {rights!r}")
            for i in range(0, len(rights), 2):
                p, s = PLAYERS.index(rights[i]), "KQ".index(rights[i + 1])
                bit, kf, _, rf, _, _, _ = CASTLING[p][s]
                if self.rights & bit:
                    raise ValueError(f"castling right {rights[i:i + 2]} twice")
                if self.board[kf] != code(p, KING) or self.board[rf] != code(p, ROOK):
                    raise ValueError(
                        f"castling right {rights[i:i + 2]} without its king on {name(kf)} and rook on {name(rf)}"
                    )
                self.rights |= bit
        if ep != "-":
            raise ValueError(f"the en-passant field is always '-': {ep!r}")
        if not halfmove.isdigit():
            raise ValueError(f"halfmove: {halfmove!r}")
        if not fullmove.isdigit() or int(fullmove) < 1:
            raise ValueError(f"fullmove: {fullmove!r}")
        self.fullmove = int(fullmove)

    def fen(self):
        rows = []
        for r in range(SIZE - 1, -1, -1):
            row, empty = "", 0
            for f in range(SIZE):
                c = self.board[sq_of(f, r)]
                if c:
                    if empty:
                        row += str(empty)
                        empty = 0
                    row += PLAYERS[owner(c)] + KIND_LETTERS[kind_of(c)]
                else:
                    empty += 1  # empty squares and corner non-squares alike
            if empty:
                row += str(empty)
            rows.append(row)
        rights = ""
        for p in range(4):
            for s in (0, 1):
                if self.rights & right_bit(p, s):
                    rights += PLAYERS[p] + "KQ"[s]
        return f"{'/'.join(rows)} {PLAYERS[self.side]} {rights or '-'} - 0 {self.fullmove}"

    # -- moves --

    def pseudo_moves(self):
        """The mover's moves by piece movement alone, castling included (its conditions other than
        the landing square's safety checked here); king safety is left to legal_moves()."""
        b, p = self.board, self.side
        team = p & 1
        can_take = CAPTURABLE[team]
        moves = []
        add = moves.append
        for sq in SQUARES:
            c = b[sq]
            if not c or owner(c) != p:
                continue
            k = kind_of(c)
            if k == PAWN:
                t = PAWN_PUSH[p][sq]
                targets = []
                if t >= 0 and not b[t]:
                    targets.append(t)
                    dbl = PAWN_DOUBLE[p][sq]
                    if dbl and not b[dbl[1]]:
                        targets.append(dbl[1])
                for t in PAWN_CAPTURES[p][sq]:
                    if can_take[b[t]]:
                        targets.append(t)
                for t in targets:
                    if PROMOTES[p][t]:
                        for promo in PROMOTIONS:
                            add((sq, t, promo, -1, -1))
                    else:
                        add((sq, t, 0, -1, -1))
            elif k == KNIGHT or k == KING:
                for t in (KNIGHT_TO if k == KNIGHT else KING_TO)[sq]:
                    if not b[t] or can_take[b[t]]:
                        add((sq, t, 0, -1, -1))
                if k == KING and self.rights:
                    for bit, kf, kt, rf, rt, between, passed in CASTLING[p]:
                        if (
                            self.rights & bit
                            and sq == kf
                            and all(not b[s] for s in between)
                            and not attacked(b, kf, team)
                            and not attacked(b, passed, team)
                        ):
                            add((kf, kt, 0, rf, rt))
            else:
                rays = []
                if k != BISHOP:
                    rays += ORTH_RAYS[sq]
                if k != ROOK:
                    rays += DIAG_RAYS[sq]
                for ray in rays:
                    for t in ray:
                        x = b[t]
                        if x:
                            if can_take[x]:
                                add((sq, t, 0, -1, -1))
                            break
                        add((sq, t, 0, -1, -1))
        return moves

    def legal_moves(self):
        """Pseudo-legal moves that do not leave the mover's king attacked, plus every capture of
        an enemy king; all pseudo-legal moves for a player without a king."""
        moves = self.pseudo_moves()
        p = self.side
        ksq = self.kings[p]
        if ksq < 0:
            return moves
        team = p & 1
        b = self.board
        legal = []
        for m in moves:
            frm, to, _, rf, rt = m
            captured = b[to]
            if captured and kind_of(captured) == KING:
                legal.append(m)
                continue
            # play the move on the board (the promoted kind does not matter here), test, take back
            piece = b[frm]
            b[to], b[frm] = piece, 0
            if rf >= 0:
                b[rt], b[rf] = b[rf], 0
            safe = not attacked(b, to if frm == ksq else ksq, team)
            if rf >= 0:
                b[rf], b[rt] = b[rt], 0
            b[frm], b[to] = piece, captured
            if safe:
                legal.append(m)
        return legal

    def make(self, m):
        """Play a move; returns what unmake() needs to take it back."""
        frm, to, promo, rf, rt = m
        b = self.board
        piece, captured = b[frm], b[to]
        undo = (captured, self.rights, self.fullmove, self.kings[:])
        b[to] = code(owner(piece), promo) if promo else piece
        b[frm] = 0
        if rf >= 0:
            b[rt], b[rf] = b[rf], 0
        if kind_of(piece) == KING:
            self.kings[owner(piece)] = to
        if captured and kind_of(captured) == KING:
            self.kings[owner(captured)] = -1
        self.rights &= ~(CLEAR_RIGHTS[frm] | CLEAR_RIGHTS[to])
        if self.side == 3:
            self.fullmove += 1
        self.side = (self.side + 1) % 4
        return undo

    def unmake(self, m, undo):
        frm, to, promo, rf, rt = m
        b = self.board
        captured, self.rights, self.fullmove, self.kings = undo
        self.side = (self.side - 1) % 4
        piece = b[to]
        if promo:
            piece = code(owner(piece), PAWN)
        b[frm], b[to] = piece, captured
        if rf >= 0:
            b[rf], b[rt] = b[rt], 0

    def in_check(self, player=None):
        p = self.side if player is None else player
        return self.kings[p] >= 0 and attacked(self.board, self.kings[p], p & 1)


def move_text(m):
    frm, to, promo, _, _ = m
    return name(frm) + name(to) + (KIND_LETTERS[promo].lower() if promo else "")


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        undo = pos.make(m)
        total += perft(pos, depth - 1)
        pos.unmake(m, undo)
    return total


# ---------------------------------------------------------------------------------------------
# Random games.


def result_without_moves(pos):
    """The result when the player to move has no legal move: checkmate or stalemate."""
    if pos.in_check():
        return TEAM_NAMES[1 - (pos.side & 1)]
    return "draw"


def play_move(pos, m):
    """Make a move in a game: returns the winning team's name if it captured a king, else None."""
    mover_team = pos.side & 1
    captured = pos.board[m[1]]
    pos.make(m)
    if captured and kind_of(captured) == KING:
        return TEAM_NAMES[mover_team]
    return None


def play(rng, max_plies, on_turn=None):
    """Play one random game from the start. Calls on_turn(pos, sorted move texts) before each move.
    Returns (final position, result or None if cut at max_plies)."""
    pos = Position()
    for _ in range(max_plies):
        moves = pos.legal_moves()
        if not moves:
            return pos, result_without_moves(pos)
        texts = sorted((move_text(m), m) for m in moves)
        if on_turn:
            on_turn(pos, [t for t, _ in texts])
        _, m = rng.choice(texts)
        result = play_move(pos, m)
        if result:
            return pos, result
    if not pos.legal_moves():
        return pos, result_without_moves(pos)
    return pos, None


def cmd_turns(games, seed, max_plies):
    rng = random.Random(seed)
    out = sys.stdout
    for _ in range(games):
        pos, result = play(rng, max_plies, lambda pos, texts: out.write(f"{pos.fen()} ; {' '.join(texts)}\n"))
        if result is not None:
            out.write(f"end {pos.fen()} ; {result}\n")
    out.flush()


def cmd_random_positions(n, seed, plies):
    rng = random.Random(seed)
    printed = 0
    while printed < n:
        pos, result = play(rng, plies)
        if result is not None:
            continue  # the game ended on the way (or at the position reached): play another
        print(pos.fen())
        printed += 1


# ---------------------------------------------------------------------------------------------
# Self-test: hand-made positions, and a second implementation (slow, coordinate-based, a dict
# board, legality by trying every enemy reply) compared along random games.


def moves_of(fen):
    return sorted(move_text(m) for m in Position(fen).legal_moves())


def placement(pieces, side="r", rights="-", fullmove=1):
    """A FEN from {square name: 'rK', ...}."""
    board = {parse_square(s): p for s, p in pieces.items()}
    rows = []
    for r in range(SIZE - 1, -1, -1):
        row, empty = "", 0
        for f in range(SIZE):
            p = board.get(sq_of(f, r))
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {side} {rights} - 0 {fullmove}"


class Slow:
    """The rules once more, directly on coordinates: board {(f, r): (player letter, kind letter)}."""

    FWD = {"r": (0, 1), "b": (1, 0), "y": (0, -1), "g": (-1, 0)}
    # second row and promotion row, as predicates on (f, r) counted from 0
    SECOND = {"r": lambda f, r: r == 1, "b": lambda f, r: f == 1,
              "y": lambda f, r: r == 12, "g": lambda f, r: f == 12}
    LAST = {"r": lambda f, r: r == 10, "b": lambda f, r: f == 10,
            "y": lambda f, r: r == 3, "g": lambda f, r: f == 3}
    TEAM = {"r": "ry", "y": "ry", "b": "bg", "g": "bg"}

    @staticmethod
    def sq(text):
        return FILES.index(text[0]), int(text[1:]) - 1

    @staticmethod
    def text(fr):
        return FILES[fr[0]] + str(fr[1] + 1)

    @classmethod
    def enemies(cls, a, b):
        return cls.TEAM[a] != cls.TEAM[b]

    @classmethod
    def from_fen(cls, fen):
        placement_, side, rights = fen.split()[:3]
        board = {}
        for i, row in enumerate(placement_.split("/")):
            r, f = 13 - i, 0
            for tok in re.findall(r"[0-9]+|[rbyg][KQRBNP]", row):
                if tok[0].isdigit():
                    f += int(tok)
                else:
                    board[(f, r)] = (tok[0], tok[1])
                    f += 1
        rights = set() if rights == "-" else {rights[i:i + 2] for i in range(0, len(rights), 2)}
        return board, side, rights

    @classmethod
    def piece_moves(cls, board, fr, with_quiet=True):
        """(to, promotion letter) pairs of the piece on fr, castling aside."""
        pl, k = board[fr]
        f, r = fr
        out = []

        def free_or_enemy(t):
            return is_square(*t) and (t not in board or cls.enemies(board[t][0], pl))

        if k == "P":
            df, dr = cls.FWD[pl]
            ahead = (f + df, r + dr)
            cand = []
            if with_quiet and is_square(*ahead) and ahead not in board:
                cand.append(ahead)
                two = (f + 2 * df, r + 2 * dr)
                if cls.SECOND[pl](f, r) and is_square(*two) and two not in board:
                    cand.append(two)
            for side in (1, -1):
                t = (f + df + side * dr, r + dr + side * df)
                if is_square(*t) and t in board and cls.enemies(board[t][0], pl):
                    cand.append(t)
            for t in cand:
                if cls.LAST[pl](*t):
                    out += [(t, x) for x in "qrbn"]
                else:
                    out.append((t, ""))
            return out
        if k in "NK":
            steps = KNIGHT_STEPS if k == "N" else [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if x or y]
            return [((f + x, r + y), "") for x, y in steps if free_or_enemy((f + x, r + y))]
        dirs = {"R": ORTHOGONAL, "B": DIAGONAL, "Q": ORTHOGONAL + DIAGONAL}[k]
        for x, y in dirs:
            t = (f + x, r + y)
            while is_square(*t):
                if t in board:
                    if cls.enemies(board[t][0], pl):
                        out.append((t, ""))
                    break
                out.append((t, ""))
                t = (t[0] + x, t[1] + y)
        return out

    @classmethod
    def hit(cls, board, target, victim):
        """Could an enemy of `victim` capture on `target` (which holds one of victim's team)?"""
        return any(
            cls.enemies(pl, victim) and any(t == target for t, _ in cls.piece_moves(board, fr, with_quiet=False))
            for fr, (pl, _) in list(board.items())
        )

    @classmethod
    def apply(cls, board, rights, fr, to, promo):
        board = dict(board)
        pl, k = board.pop(fr)
        if k == "K" and abs(to[0] - fr[0]) + abs(to[1] - fr[1]) == 2 and (to[0] == fr[0] or to[1] == fr[1]):
            # castling: the rook stands beyond the landing square in the same direction
            d = ((to[0] - fr[0]) // 2, (to[1] - fr[1]) // 2)
            t = (to[0] + d[0], to[1] + d[1])
            while t not in board:
                t = (t[0] + d[0], t[1] + d[1])
            board[(fr[0] + d[0], fr[1] + d[1])] = board.pop(t)
        board[to] = (pl, promo.upper() if promo else k)
        # a right is lost once its king or rook leaves its start square or is captured there
        def kept(x):
            king_home, _, rook_home, _ = _CASTLING_TEXT[x[0]]["KQ".index(x[1])]
            return not {cls.sq(king_home), cls.sq(rook_home)} & {fr, to}

        return board, {x for x in rights if kept(x)}

    @classmethod
    def legal(cls, fen):
        board, side, rights = cls.from_fen(fen)
        king = next((fr for fr, pc in board.items() if pc == (side, "K")), None)
        out = []
        for fr, (pl, _) in list(board.items()):
            if pl != side:
                continue
            for to, promo in cls.piece_moves(board, fr):
                taken = board.get(to)
                after, _ = cls.apply(board, set(), fr, to, promo)
                k = to if fr == king else king
                if king is None or (taken and taken[1] == "K") or not cls.hit(after, k, side):
                    out.append(cls.text(fr) + cls.text(to) + promo)
        # castling: king and rook in place (the right), all between empty, the king attacked
        # neither where it stands, nor on the square it passes, nor where it lands
        for x in sorted(rights):
            if x[0] != side:
                continue
            kf, kt, rf, _ = (cls.sq(s) for s in _CASTLING_TEXT[side]["KQ".index(x[1])])
            d = ((kt[0] - kf[0]) // 2, (kt[1] - kf[1]) // 2)
            between, t = [], (kf[0] + d[0], kf[1] + d[1])
            while t != rf:
                between.append(t)
                t = (t[0] + d[0], t[1] + d[1])
            if any(s in board for s in between):
                continue
            passed = (kf[0] + d[0], kf[1] + d[1])
            step, _ = cls.apply(board, set(), kf, passed, "")
            land, _ = cls.apply(board, set(), kf, kt, "")
            if not cls.hit(board, kf, side) and not cls.hit(step, passed, side) and not cls.hit(land, kt, side):
                out.append(cls.text(kf) + cls.text(kt))
        return sorted(out)

    @classmethod
    def fen(cls, board, side, rights):
        pieces = {cls.text(fr): pl + k for fr, (pl, k) in board.items()}
        return placement(pieces, side, "".join(x for p in PLAYERS for x in (p + "K", p + "Q") if x in rights) or "-")

    @classmethod
    def perft(cls, fen, depth):
        """Leaves of the legal-move tree, all by the slow rules (the FEN rebuilt at every node)."""
        if depth == 0:
            return 1
        moves = cls.legal(fen)
        if depth == 1:
            return len(moves)
        board, side, rights = cls.from_fen(fen)
        following = PLAYERS[(PLAYERS.index(side) + 1) % 4]
        total = 0
        for m in moves:
            a, b, promo = re.fullmatch(r"([a-n][0-9]+)([a-n][0-9]+)([qrbn]?)", m).groups()
            after_board, after_rights = cls.apply(board, rights, cls.sq(a), cls.sq(b), promo)
            total += cls.perft(cls.fen(after_board, following, after_rights), depth - 1)
        return total


def selftest(quick=False):
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)
            print(f"FAIL: {what}", file=sys.stderr)

    # The start position, square by square, as the rules list it.
    listed = {
        "r": "d1 R, e1 N, f1 B, g1 Q, h1 K, i1 B, j1 N, k1 R",
        "y": "d14 R, e14 N, f14 B, g14 K, h14 Q, i14 B, j14 N, k14 R",
        "b": "a4 R, a5 N, a6 B, a7 K, a8 Q, a9 B, a10 N, a11 R",
        "g": "n4 R, n5 N, n6 B, n7 Q, n8 K, n9 B, n10 N, n11 R",
    }
    pawns = {"r": "d2 e2 f2 g2 h2 i2 j2 k2", "y": "d13 e13 f13 g13 h13 i13 j13 k13",
             "b": "b4 b5 b6 b7 b8 b9 b10 b11", "g": "m4 m5 m6 m7 m8 m9 m10 m11"}
    expected = [0] * (SIZE * SIZE)
    for pl, text in listed.items():
        for item in text.split(", "):
            s, k = item.split()
            expected[parse_square(s)] = code(PLAYERS.index(pl), KIND_LETTERS.index(k))
        for s in pawns[pl].split():
            expected[parse_square(s)] = code(PLAYERS.index(pl), PAWN)
    start = Position()
    check(start.board == expected, "the start FEN holds the listed start position")
    check(start.fen() == START_FEN, "the start FEN reads and writes back as it was")
    check(len(SQUARES) == 160, "160 squares")
    check(start.rights == 0xFF and start.side == 0 and start.fullmove == 1, "start: all rights, red to move, move 1")

    # 20 moves for each player at the start.
    for pl in PLAYERS:
        fen = START_FEN.replace(" r ", f" {pl} ")
        ms = moves_of(fen)
        check(len(ms) == 20, f"start, {pl} to move: 20 moves (got {len(ms)})")
        check(Position(fen).fen() == fen, f"start, {pl} to move: FEN round trip")
    check("h2h4" in moves_of(START_FEN) and "e1f3" in moves_of(START_FEN), "red's h2h4 and e1f3")
    check("b7d7" in moves_of(START_FEN.replace(" r ", " b ")), "blue's double step b7d7")
    check("m8k8" in moves_of(START_FEN.replace(" r ", " g ")), "green's double step m8k8")
    check("g13g11" in moves_of(START_FEN.replace(" r ", " y ")), "yellow's double step g13g11")

    # Move number: up by one after green's move only.
    pos = Position()
    for ply, want in enumerate([1, 1, 1, 1, 2, 2]):
        check(pos.fullmove == want, f"fullmove {want} before ply {ply}")
        pos.make(pos.legal_moves()[0])

    # A pin: red's rook on h5 pinned by green's queen on h9 moves only along the file.
    fen = placement({"h1": "rK", "h5": "rR", "h9": "gQ", "n8": "gK", "a7": "bK", "g14": "yK"})
    rook = [m for m in moves_of(fen) if m.startswith("h5")]
    check(rook == sorted(["h5h2", "h5h3", "h5h4", "h5h6", "h5h7", "h5h8", "h5h9"]), f"pinned rook: {rook}")
    # a knight pinned by blue's bishop cannot move at all
    fen = placement({"h1": "rK", "g2": "rN", "e4": "bB", "n8": "gK", "a7": "bK", "g14": "yK"})
    check(not [m for m in moves_of(fen) if m.startswith("g2")], "pinned knight has no move")
    # a partner's slider does not pin
    fen = placement({"h1": "rK", "g2": "rN", "e4": "yB", "n8": "gK", "a7": "bK", "g14": "yK"})
    check(len([m for m in moves_of(fen) if m.startswith("g2")]) == 6, "a partner's bishop pins nothing")

    # A partner's piece blocks and is never captured; an enemy one beyond is out of reach, a
    # nearer enemy one is captured.
    fen = placement({"h1": "rK", "d5": "rR", "d9": "yP", "f5": "bP", "n8": "gK", "a7": "bK", "g14": "yK"})
    rook = [m for m in moves_of(fen) if m.startswith("d5")]
    check(rook == sorted(["d5d1", "d5d2", "d5d3", "d5d4", "d5d6", "d5d7", "d5d8",
                          "d5e5", "d5f5", "d5c5", "d5b5", "d5a5"]),
          f"rook next to a partner's pawn: {rook}")
    fen = placement({"h1": "rK", "e5": "rN", "f7": "yQ", "d7": "gR", "n8": "gK", "a7": "bK", "g14": "yK"})
    check("e5d7" in moves_of(fen) and "e5f7" not in moves_of(fen), "knight takes green's rook, not yellow's queen")
    # a partner's pawn does not attack, an enemy's does (each in its own forward direction)
    fen = placement({"h5": "rK", "g6": "yP", "n8": "gK", "a7": "bK", "g14": "yK"})
    check(not Position(fen).in_check(), "yellow's pawn on g6 (a partner's) does not check h5")
    fen = placement({"h5": "rK", "g4": "bP", "n8": "gK", "a7": "bK", "g14": "yK"})
    check(Position(fen).in_check(), "blue's pawn on g4 checks h5")
    check("h5h3" not in moves_of(fen) and "h5h4" in moves_of(fen), "blue's pawn on g4 attacks h3, not h4")
    fen = placement({"h5": "rK", "i6": "gP", "n8": "gK", "a7": "bK", "g14": "yK"})
    check(Position(fen).in_check(), "green's pawn on i6 checks h5")
    fen = placement({"h5": "rK", "i4": "gP", "n8": "gK", "a7": "bK", "g14": "yK"})
    check(Position(fen).in_check(), "green's pawn on i4 checks h5")
    fen = placement({"h5": "rK", "i5": "gP", "n8": "gK", "a7": "bK", "g14": "yK"})
    check(not Position(fen).in_check(), "green's pawn on i5 attacks h6 and h4, not h5")
    fen = placement({"h5": "rK", "g5": "gP", "n8": "gK", "a7": "bK", "g14": "yK"})
    check(not Position(fen).in_check(), "green's pawn on g5 attacks f6 and f4, not h5")

    # Kings: never next to an enemy king (it attacks too), next to a partner's king freely; a king
    # does not take a piece its enemies guard.
    fen = placement({"h5": "rK", "h7": "bK", "n8": "gK", "g14": "yK"})
    check(moves_of(fen) == ["h5g4", "h5g5", "h5h4", "h5i4", "h5i5"], f"kings apart: {moves_of(fen)}")
    fen = placement({"h5": "rK", "h7": "yK", "n8": "gK", "a7": "bK"})
    check(len(moves_of(fen)) == 8, "a partner's king attacks nothing")
    fen = placement({"h5": "rK", "h6": "gN", "h9": "bR", "n8": "gK", "a7": "bK", "g14": "yK"})
    check("h5h6" not in moves_of(fen) and "h5g5" in moves_of(fen), "the king does not take a guarded knight")

    # Castling: allowed on a bare back row; refused through a square attacked by blue or by green;
    # not refused by a partner's piece; refused onto an attacked square; refused in check.
    base = {"h1": "rK", "k1": "rR", "d1": "rR", "n8": "gK", "a7": "bK", "g14": "yK"}
    fen = placement(base, rights="rKrQ")
    check({"h1j1", "h1f1"} <= set(moves_of(fen)), "red castles both ways")
    pos = Position(fen)
    m = next(m for m in pos.legal_moves() if move_text(m) == "h1j1")
    pos.make(m)
    moved = {k: v for k, v in base.items() if k not in ("h1", "k1")}
    check(pos.fen() == placement(dict(moved, j1="rK", i1="rR"), side="b", rights="-"), f"after h1j1: {pos.fen()}")
    fen = placement(dict(base, g7="bR"), rights="rKrQ")
    check("h1f1" not in moves_of(fen) and "h1j1" in moves_of(fen), "no castling over g1 attacked by blue")
    fen = placement(dict(base, l4="gB"), rights="rKrQ")
    check("h1j1" not in moves_of(fen) and "h1f1" in moves_of(fen), "no castling over i1 attacked by green")
    fen = placement(dict(base, g7="yR", l4="yB"), rights="rKrQ")
    check({"h1j1", "h1f1"} <= set(moves_of(fen)), "castling over squares a partner's pieces reach")
    fen = placement(dict(base, j7="bR"), rights="rKrQ")
    check("h1j1" not in moves_of(fen) and "h1f1" in moves_of(fen), "no castling onto j1 attacked")
    fen = placement(dict(base, e7="gR"), rights="rKrQ")
    check("h1f1" in moves_of(fen), "castling allowed with e1 (not passed by the king) attacked")
    fen = placement(dict(base, h7="gR"), rights="rKrQ")
    check("h1j1" not in moves_of(fen) and "h1f1" not in moves_of(fen), "no castling out of check")
    fen = placement(dict(base, e1="rN"), rights="rKrQ")
    check("h1f1" not in moves_of(fen), "no castling with e1 occupied")
    # the other three players' castling, as the rules write it
    for pl, rooks, want in (
        ("b", ("a4", "a11"), {"a7a5", "a7a9"}),
        ("y", ("d14", "k14"), {"g14e14", "g14i14"}),
        ("g", ("n11", "n4"), {"n8n10", "n8n6"}),
    ):
        kings = {"h1": "rK", "a7": "bK", "g14": "yK", "n8": "gK"}
        pieces = dict(kings, **{rooks[0]: pl + "R", rooks[1]: pl + "R"})
        fen = placement(pieces, side=pl, rights=f"{pl}K{pl}Q")
        check(want <= set(moves_of(fen)), f"{pl} castles {want}")
    pos = Position(placement({"a7": "bK", "a4": "bR", "a11": "bR", "h1": "rK", "g14": "yK", "n8": "gK"},
                             side="b", rights="bKbQ"))
    m = next(m for m in pos.legal_moves() if move_text(m) == "a7a9")
    pos.make(m)
    check(pos.board[parse_square("a8")] == code(1, ROOK) and pos.board[parse_square("a9")] == code(1, KING)
          and pos.rights == 0, "blue's a7a9: rook to a8, rights gone")
    # rights: kept through other moves; a rook's move loses its side's right, the king's move both,
    # a capture on the rook's start square that side's right
    def rights_after(fen, moves):
        pos = Position(fen)
        for mv in moves:
            pos.make(next(m for m in pos.legal_moves() if move_text(m) == mv))
        return pos.fen().split()[2]

    check(rights_after(START_FEN, ["h2h3", "b4c4", "g13g12", "m4l4", "e1f3"]) == "rKrQbKbQyKyQgKgQ", "rights kept")
    fen = placement(base, rights="rKrQ")
    check(rights_after(fen, ["k1k2"]) == "rQ", "a king-side rook's move loses rK")
    check(rights_after(fen, ["d1d2"]) == "rK", "a queen-side rook's move loses rQ")
    check(rights_after(fen, ["h1h2"]) == "-", "the king's move loses both")
    fen = placement(dict(base, g4="bB"), side="b", rights="rKrQ")
    check(rights_after(fen, ["g4d1"]) == "rK", "a capture on d1 loses red's queen side")
    try:
        Position(placement(base, rights="bK"))
        check(False, "a castling right without its pieces is refused")
    except ValueError:
        pass

    # Promotion: four moves, on red's rank 11 and blue's file k; a pawn beyond moves on plainly.
    fen = placement({"h1": "rK", "e10": "rP", "e12": "rP", "n8": "gK", "a7": "bK", "g14": "yK"})
    ms = moves_of(fen)
    check([m for m in ms if m.startswith("e10")] == ["e10e11b", "e10e11n", "e10e11q", "e10e11r"], f"promotion: {ms}")
    check("e12e13" in ms, "a pawn beyond the 11th row moves on")
    fen = placement({"h1": "rK", "j5": "bP", "n8": "gK", "a7": "bK", "g14": "yK", "k6": "rN"}, side="b")
    ms = [m for m in moves_of(fen) if m.startswith("j5")]
    check(ms == sorted(["j5k5q", "j5k5r", "j5k5b", "j5k5n", "j5k6q", "j5k6r", "j5k6b", "j5k6n"]),
          f"blue promotes, also taking: {ms}")
    fen = placement({"h1": "rK", "e5": "yP", "n8": "gK", "a7": "bK", "g14": "yK"}, side="y")
    ms = [m for m in moves_of(fen) if m.startswith("e5")]
    check(ms == ["e5e4b", "e5e4n", "e5e4q", "e5e4r"], f"yellow promotes on rank 4: {ms}")
    fen = placement({"h1": "rK", "e5": "gP", "n8": "gK", "a7": "bK", "g14": "yK"}, side="g")
    ms = [m for m in moves_of(fen) if m.startswith("e5")]
    check(ms == ["e5d5b", "e5d5n", "e5d5q", "e5d5r"], f"green promotes on file d: {ms}")
    pos = Position(placement({"h1": "rK", "e10": "rP", "n8": "gK", "a7": "bK", "g14": "yK"}))
    m = next(m for m in pos.legal_moves() if move_text(m) == "e10e11n")
    u = pos.make(m)
    check(pos.board[parse_square("e11")] == code(0, KNIGHT), "e10e11n leaves a knight")
    pos.unmake(m, u)
    check(pos.board[parse_square("e10")] == code(0, PAWN), "unmake restores the pawn")

    # A king capture is legal though it leaves the capturer's own king attacked.
    fen = placement({"e5": "rK", "e6": "rN", "e10": "gR", "f8": "bK", "n8": "gK", "g14": "yK"})
    ms = moves_of(fen)
    check([m for m in ms if m.startswith("e6")] == ["e6f8"], f"the pinned knight takes the king, nothing else: {ms}")
    # ...which ends a game, won by red's team; perft goes on with blue, who has no king left and
    # so no restriction: blue's legal moves are its pseudo-legal ones
    pos = Position(fen)
    check(play_move(pos, next(m for m in pos.legal_moves() if move_text(m) == "e6f8")) == "ry", "king capture wins")
    check(pos.kings[1] == -1 and pos.side == 1, "blue's king is gone, blue to move")
    pos = Position(placement({"e5": "rK", "e10": "gR", "n8": "gK", "g14": "yK", "b5": "bR", "g4": "bN", "d14": "yR"},
                             side="b"))
    ms = sorted(move_text(m) for m in pos.legal_moves())
    check(ms == sorted(move_text(m) for m in pos.pseudo_moves()) and "b5e5" in ms and "g4f6" in ms,
          f"blue without a king: {ms}")
    pos = Position(fen)
    check(perft(pos, 2) == sum(len(after(m, fen).legal_moves()) for m in pos.legal_moves()),
          "perft goes on past a king capture")

    # Game ends: checkmate (the mated team loses), stalemate (draw).
    fen = placement({"h1": "rK", "h2": "bQ", "j4": "bB", "n8": "gK", "a7": "bK", "g14": "yK"})
    pos = Position(fen)
    check(not pos.legal_moves() and result_without_moves(pos) == "bg", "red checkmated: blue and green win")
    fen = placement({"d1": "rK", "e5": "gR", "f4": "gB", "n8": "gK", "a7": "bK", "g14": "yK"})
    pos = Position(fen)
    check(not pos.legal_moves() and result_without_moves(pos) == "draw", "red stalemated: a draw")

    # The slow implementation agrees along random games, position by position. The games go on
    # past a captured king, as perft does (a king capture, when there is one, is always played), so
    # that players without a king are compared too.
    games, plies = (6, 150) if quick else (16, 300)
    rng = random.Random(4)
    compared = kingless = 0
    for _ in range(games):
        pos = Position()
        for _ in range(plies):
            fen = pos.fen()
            ours = sorted(move_text(m) for m in pos.legal_moves())
            slow = Slow.legal(fen)
            check(ours == slow, f"{fen}: only ours {set(ours) - set(slow)}, only slow {set(slow) - set(ours)}")
            compared += 1
            if compared % 10 == 0 and pos.kings[pos.side] >= 0:
                # the same position with the mover's king taken off (and its castling rights)
                bare = Position(fen)
                bare.board[bare.kings[bare.side]] = 0
                bare.kings[bare.side] = -1
                bare.rights &= ~(right_bit(bare.side, 0) | right_bit(bare.side, 1))
                a, b = sorted(move_text(m) for m in bare.legal_moves()), Slow.legal(bare.fen())
                check(a == b, f"{bare.fen()}: only ours {set(a) - set(b)}, only slow {set(b) - set(a)}")
                check(a == sorted(move_text(m) for m in bare.pseudo_moves()),
                      f"{bare.fen()}: no king, no restriction")
                kingless += 1
            if not ours:
                break
            if pos.kings[pos.side] < 0:
                kingless += 1
            legal = pos.legal_moves()
            m = rng.choice([m for m in legal if kind_of(pos.board[m[1]]) == KING] or legal)
            # the position after the move, both ways
            board, side, rights = Slow.from_fen(fen)
            promo = move_text(m)[len(name(m[0]) + name(m[1])):]
            board, rights = Slow.apply(board, rights, Slow.sq(name(m[0])), Slow.sq(name(m[1])), promo)
            pos.make(m)
            b2, _, r2 = Slow.from_fen(pos.fen())
            check(b2 == board and r2 == rights, f"{fen} after {move_text(m)}: {pos.fen()}")
            check(Position(pos.fen()).fen() == pos.fen(), f"round trip {pos.fen()}")
    # Perft: make and unmake leave the position as it was; depth 2 sums the children's move counts.
    pos = Position()
    p2 = perft(pos, 2)
    check(pos.fen() == START_FEN and pos.board == expected and pos.kings == Position().kings,
          "perft leaves the position as it was")
    check(perft(Position(), 1) == 20, "perft 1 = 20")
    check(p2 == sum(len(after(m).legal_moves()) for m in Position().legal_moves()), "perft 2 sums its children")
    check(Slow.perft(START_FEN, 3 if quick else 4) == perft(Position(), 3 if quick else 4), "the slow perft agrees")
    rng = random.Random(11)
    for plies in (20, 60, 100) if quick else (20, 40, 60, 80, 100, 140, 180):
        pos, result = play(rng, plies)
        if result is None:
            fen = pos.fen()
            check(Slow.perft(fen, 2) == perft(pos, 2), f"{fen}: the slow perft 2 agrees")

    check(kingless > 0, "some compared positions have a player without a king to move")
    print(f"selftest: {compared} positions compared with the slow implementation ({kingless} with the mover's"
          f" king gone); perft 2 = {p2}", file=sys.stderr)
    if failures:
        print(f"selftest: {len(failures)} failure(s)", file=sys.stderr)
        return 1
    print("selftest: ok", file=sys.stderr)
    return 0


def after(m, fen=START_FEN):
    pos = Position(fen)
    pos.make(m)
    return pos


# ---------------------------------------------------------------------------------------------


def main(argv):
    if len(argv) == 5 and argv[1] == "turns":
        cmd_turns(int(argv[2]), int(argv[3]), int(argv[4]))
    elif len(argv) == 4 and argv[1] == "perft":
        print(perft(Position(argv[2]), int(argv[3])))
    elif len(argv) == 5 and argv[1] == "perft" and argv[4] == "--slow":
        Position(argv[2])  # the FEN checked as for perft
        print(Slow.perft(argv[2], int(argv[3])))
    elif len(argv) == 4 and argv[1] == "divide":
        pos = Position(argv[2])
        depth = int(argv[3])
        total = 0
        for text, m in sorted((move_text(m), m) for m in pos.legal_moves()):
            u = pos.make(m)
            n = perft(pos, depth - 1)
            pos.unmake(m, u)
            print(f"{text} {n}")
            total += n
        print(f"total {total}")
    elif len(argv) == 5 and argv[1] == "random-positions":
        cmd_random_positions(int(argv[2]), int(argv[3]), int(argv[4]))
    elif len(argv) in (2, 3) and argv[1] == "selftest" and argv[2:] in ([], ["--quick"]):
        return selftest(quick=argv[2:] == ["--quick"])
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except ValueError as e:
        raise SystemExit(f"error: {e}")
