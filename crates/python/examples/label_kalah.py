"""Labels random Kalah(6,4) positions with their perfect-play values and best moves from 20-seed
tables, in one batch.

    python crates/python/examples/label_kalah.py [COUNT] [DIRECTORY]

Positions come from random games (uniform legal moves from the start, stopped at a random point
once at most 20 seeds are on the board); the tables (Kalah 6-pit, empty capture, layers 0..=20,
226 MB) are built into DIRECTORY (default data/tables) if missing. The positions go to the
tables as an (N, 12) numpy array of pit counts (South's pits then North's) and a side to move a
row; values and best moves come back as numpy arrays, labelled on every core. Prints the time to
generate the positions and the labelling rate (positions/s); the value is the net score of the
seeds on the board for the player to move.
"""

import random
import sys
import time

import numpy as np

import granary

count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
directory = sys.argv[2] if len(sys.argv) > 2 else "data/tables"
TABLE_SEEDS = 20

tables = granary.Tablebase(directory, create=True)
started = time.perf_counter()
report = tables.build(granary.Game("kalah"), TABLE_SEEDS)
print(f"tables {report.tables} 0..={TABLE_SEEDS}: {report.kept} layers present, "
      f"{report.built} positions built in {time.perf_counter() - started:.1f} s")

rng = random.Random(2026)
pits = np.zeros((count, 12), dtype=np.uint8)
to_move = np.zeros(count, dtype=np.uint8)  # 0 South, 1 North
found = 0
started = time.perf_counter()
while found < count:
    game = granary.Game("kalah")
    while not game.is_over():
        game = game.play(rng.choice(game.legal_moves()))
        if sum(game.pits) <= TABLE_SEEDS and not game.is_over() and rng.random() < 0.3:
            pits[found] = game.pits
            to_move[found] = game.to_move == "north"
            found += 1
            break
generated = time.perf_counter() - started

# The first batch opens the layers it needs (each checked once, then mapped); later ones only
# read them.
started = time.perf_counter()
tables.values("kalah", pits, to_move=to_move)
opened = time.perf_counter() - started
started = time.perf_counter()
labels = tables.values("kalah", pits, to_move=to_move)
labelled = time.perf_counter() - started
assert labels.covered.all(), "every position has at most 20 seeds: the tables cover it"
values = labels.value
print(f"{count} positions generated in {generated:.1f} s; labelled in {opened:.3f} s with the "
      f"tables opened, then in {labelled:.4f} s: {count / labelled:,.0f} positions/s")

started = time.perf_counter()
moves = tables.best_moves("kalah", pits, to_move=to_move)
print(f"every move's value and the best moves in {time.perf_counter() - started:.4f} s")
assert (moves.value == values).all()

wins, draws = int((values > 0).sum()), int((values == 0).sum())
first = granary.Game.from_pits("kalah", pits[0, :6], pits[0, 6:], to_move="SN"[to_move[0]])
best = [k + 1 for k in range(6) if moves.best[0, k]]
print(f"mover wins {wins}, draws {draws}, loses {count - wins - draws}; "
      f"e.g. {first.position} -> {values[0]:+d}, best pits {best}")
