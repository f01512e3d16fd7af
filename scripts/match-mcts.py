"""granary's OpenSpiel bot against OpenSpiel's MCTS in OpenSpiel's ``oware`` (Oware(6,4), abapa),
each side in turn.

    python scripts/match-mcts.py TABLE_DIR GAMES [TIME] [SIMULATIONS]

``GranaryBot`` (tables of up to 16 seeds in ``TABLE_DIR``, built if missing; perfect play within
them, above them the engine for ``TIME`` seconds a move, 1 by default) against OpenSpiel's C++
``MCTSBot`` (``SIMULATIONS`` simulations a move, 10,000 by default, random rollouts, UCT
constant 2, a seed a game). ``GAMES`` games, granary South in the even ones. Prints each game
and the totals for granary: won, drawn, lost. Needs the granary
package and ``open_spiel`` (``scripts/test-python.sh`` installs both in a venv).
"""

import sys
import time

import pyspiel

import granary.openspiel as gos


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    directory, games = sys.argv[1], int(sys.argv[2])
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    simulations = int(sys.argv[4]) if len(sys.argv) > 4 else 10_000
    game = pyspiel.load_game("oware")
    bot = gos.GranaryBot(game, directory, table_seeds=16, time=seconds)
    print(
        f"match-mcts {directory} {games} {seconds} {simulations}: GranaryBot at {seconds} s a "
        f"move against MCTS with {simulations} simulations, OpenSpiel's oware",
        flush=True,
    )
    won = drawn = lost = 0
    for g in range(games):
        granary_player = g % 2
        mcts = pyspiel.MCTSBot(
            game, pyspiel.RandomRolloutEvaluator(1, g), 2.0, simulations, 1000, False, g, False
        )
        bots = [bot, mcts] if granary_player == 0 else [mcts, bot]
        bot.restart()
        state = game.new_initial_state()
        start = time.time()
        plies = 0
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(bots[player].step(state))
            plies += 1
        returns = state.returns()
        result = returns[granary_player]
        won += result > 0
        drawn += result == 0
        lost += result < 0
        print(
            f"game {g}: granary plays {'South' if granary_player == 0 else 'North'}: "
            f"returns {returns}, {plies} plies, {time.time() - start:.0f} s; final state "
            f"{' '.join(str(state).split())}",
            flush=True,
        )
    print(f"granary: {won} won, {drawn} drawn, {lost} lost of {games}", flush=True)


if __name__ == "__main__":
    main()
