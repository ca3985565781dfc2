#!/usr/bin/env python3
"""Ludo's reference for Arbiter's tests: open_spiel's `maedn` (Mensch ärgere Dich nicht, installed by
scripts/setup) plays seeded random games of 2, 3 or 4 players, and after every throw prints the
position and every move the player may make.

    ludo.py turns PLAYERS GAMES SEED MAX_TURNS
    ludo.py perft PLAYERS SEED TURNS DEPTH

`perft` plays TURNS random turns of a seeded game, then prints the position reached (as a turn
line's FEN, or with `roll:N` left out when a throw is next) and the number of leaf nodes DEPTH
plies below it, each throw's result a child as each move is (a pass is a move).

One line per turn: `FEN ; MOVE MOVE ...`, the position as a FEN of rulesets/ludo.rules (with the
throw as `roll:N`) and each move as Arbiter writes it, sorted: a pawn brought in as the square it
enters (`e1`), a pawn moved as its start and end squares (`e1e4`), and `pass`. A game that ends
prints `end FEN ; WINNER`: the final position, with the player after the winner to move (so that
the winner made the last move), and the winner's FEN letter.

The board is read from open_spiel's rendering (11 lines of 21 characters; a field holding a pawn
shows its player's number), which is the Arbiter board turned a quarter: rendering line `y`,
column `x` is file `y + 1`, rank `x / 2 + 1`. Only the cross of the board holds fields; its corners
show the pawns waiting off the board. What each action does is read back from the rendering too:
the child position after the action, compared with the position before, shows which pawn moved
from where to where. Nothing of the rules is restated here.
"""

import random
import sys

sys.dont_write_bytecode = True

# open_spiel's players in order, as Arbiter's sides in play for each number of players.
LETTERS = {2: "rg", 3: "rbg", 4: "rbgy"}
FILES = "abcdefghijk"


def on_cross(f, r):
    """Is (file, rank), both from 0, a square of the game (the cross, less its middle)?"""
    return (4 <= f <= 6 or 4 <= r <= 6) and (f, r) != (5, 5)


def board_of(state):
    """(file, rank) -> open_spiel player, for every pawn on the board."""
    lines = str(state).splitlines()[:11]
    board = {}
    for f in range(11):
        for r in range(11):
            ch = lines[f][2 * r] if 2 * r < len(lines[f]) else " "
            if on_cross(f, r) and ch.isdigit():
                board[(f, r)] = int(ch) - 1
    return board


def dice_of(state):
    for line in str(state).splitlines():
        if line.startswith("Dice:"):
            return int(line.split(":")[1])
    raise SystemExit("no dice line in open_spiel's rendering")


def name(sq):
    return f"{FILES[sq[0]]}{sq[1] + 1}"


def fen(board, players, mover, dice):
    letters = LETTERS[players]
    rows = []
    for r in range(10, -1, -1):
        row, empty = "", 0
        for f in range(11):
            if (f, r) in board:
                if empty:
                    row += str(empty)
                    empty = 0
                row += letters[board[(f, r)]] + "P"
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    hand = ""
    for p in range(players):
        waiting = 4 - sum(1 for v in board.values() if v == p)
        hand += (letters[p] + "P") * waiting
    return f"{'/'.join(rows)}[{hand}] {letters[mover]} - - roll:{dice} 0 1"


def move_text(state, action, mover):
    """What `action` does, read from the positions before and after it."""
    child = state.clone()
    child.apply_action(action)
    before, after = board_of(state), board_of(child)
    gone = [sq for sq, p in before.items() if p == mover and after.get(sq) != mover]
    came = [sq for sq, p in after.items() if p == mover and before.get(sq) != mover]
    if not gone and not came:
        return "pass"
    if not gone:
        assert len(came) == 1, (action, came)
        return name(came[0])
    assert len(gone) == 1 and len(came) == 1, (action, gone, came)
    return name(gone[0]) + name(came[0])


def turns(players, games, seed, max_turns):
    import pyspiel

    game = pyspiel.load_game("maedn", {"players": players})
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        played = 0
        while not state.is_terminal() and played < max_turns:
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            mover = state.current_player()
            board = board_of(state)
            legal = state.legal_actions()
            moves = sorted(move_text(state, a, mover) for a in legal)
            print(f"{fen(board, players, mover, dice_of(state))} ; {' '.join(moves)}")
            state.apply_action(rng.choice(legal))
            played += 1
        if state.is_terminal():
            winner = max(range(players), key=lambda p: state.returns()[p])
            final = fen(board_of(state), players, (winner + 1) % players, 1).replace(" roll:1", "")
            print(f"end {final} ; {LETTERS[players][winner]}")
        sys.stdout.flush()


def count(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if state.is_chance_node():
        actions = [a for a, _ in state.chance_outcomes()]
    else:
        actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    n = 0
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        n += count(child, depth - 1)
    return n


def perft(players, seed, played, depth):
    import pyspiel

    game = pyspiel.load_game("maedn", {"players": players})
    rng = random.Random(seed)
    state = game.new_initial_state()
    done = 0
    # Stop at a throw: the position is the one after the last move.
    while not state.is_terminal() and (done < played or not state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        done += 1
    board = board_of(state)
    # Who throws next: open_spiel keeps it apart while the die is still to be thrown.
    child = state.clone()
    child.apply_action(child.chance_outcomes()[0][0])
    text = fen(board, players, child.current_player(), 1).replace(" roll:1", "")
    print(f"{text} ; {count(state, depth)}")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "turns":
        turns(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    elif len(sys.argv) == 6 and sys.argv[1] == "perft":
        perft(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        raise SystemExit(__doc__)
