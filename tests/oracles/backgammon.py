#!/usr/bin/env python3
"""Backgammon's reference for Arbiter's tests: open_spiel's `backgammon` (installed by scripts/setup)
plays seeded random games, and at the start of every turn prints the position, the dice and every
position the turn can end in (a double's two halves, which open_spiel plays as two moves of the same
player, taken together).

    backgammon.py turns GAMES SEED [MAX_TURNS]

One line per turn: `START MOVER DICE ; END END ...`, each position as 28 numbers joined by commas:
the checkers on each point counted from the first player's (open_spiel's x's) starting end, x's
positive and o's negative, then x's and o's checkers on the bar, then x's and o's borne off. MOVER
is 0 (x, Arbiter's first player) or 1; DICE as `5-3`. The end positions are sorted and each given
once. The first roll (which open_spiel also uses to choose who starts, never a double) is played as
it comes.
"""

import random
import sys

sys.dont_write_bytecode = True


def canon(state):
    """The position as 28 comma-joined numbers (see the module's documentation)."""
    board = []
    on = [0, 0]
    for p in range(24):
        x = state.board(0, p)
        o = state.board(1, p)
        on[0] += x
        on[1] += o
        board.append(x - o)
    text = str(state)
    scores = next(line for line in text.splitlines() if line.startswith("Scores"))
    # "Scores, X: 3, O: 0"
    parts = scores.replace(",", " ").split()
    off = [int(parts[parts.index("X:") + 1]), int(parts[parts.index("O:") + 1])]
    bar = [15 - on[0] - off[0], 15 - on[1] - off[1]]
    return ",".join(str(v) for v in board + bar + off)


def dice_of(state):
    line = next(line for line in str(state).splitlines() if line.startswith("Dice"))
    d = line.split(":")[1].strip()
    return f"{d[0]}-{d[1]}"


def turn_ends(state):
    """Every position the turn starting at `state` can end in, and the actions to each."""
    me = state.current_player()
    ends = {}
    for a in state.legal_actions():
        c = state.child(a)
        if not c.is_terminal() and not c.is_chance_node() and c.current_player() == me:
            for a2 in c.legal_actions():
                ends.setdefault(canon(c.child(a2)), (a, a2))
        else:
            ends.setdefault(canon(c), (a,))
    return ends


def turns(games, seed, max_turns):
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    out = sys.stdout
    for _ in range(games):
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal() and n < max_turns:
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
                continue
            ends = turn_ends(state)
            keys = sorted(ends)
            out.write(f"{canon(state)} {state.current_player()} {dice_of(state)} ; {' '.join(keys)}\n")
            for a in ends[rng.choice(keys)]:
                state.apply_action(a)
            n += 1
    out.flush()


def main(argv):
    if len(argv) < 3 or argv[0] != "turns":
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    max_turns = int(argv[3]) if len(argv) > 3 else 10_000
    turns(int(argv[1]), int(argv[2]), max_turns)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
