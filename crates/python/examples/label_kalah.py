"""Labels random Kalah(6,4) positions with their perfect-play values from 20-seed tables.

    python crates/python/examples/label_kalah.py [COUNT] [DIRECTORY]

Positions come from random games (uniform legal moves from the start, stopped at a random point
once at most 20 seeds are on the board); the tables (Kalah 6-pit, empty capture, layers 0..=20,
226 MB) are built into DIRECTORY (default data/tables) if missing. Prints the time to generate
the positions and the labelling rate (positions/s); the value is the net score of the seeds on
the board for the player to move.
"""

import random
import sys
import time

import granary

count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
directory = sys.argv[2] if len(sys.argv) > 2 else "data/tables"
TABLE_SEEDS = 20

tables = granary.Tablebase(directory)
started = time.perf_counter()
report = tables.build(granary.Game("kalah"), TABLE_SEEDS)
print(f"tables {report.tables} 0..={TABLE_SEEDS}: {report.kept} layers present, "
      f"{report.built} positions built in {time.perf_counter() - started:.1f} s")

rng = random.Random(2026)
positions = []
started = time.perf_counter()
while len(positions) < count:
    game = granary.Game("kalah")
    while not game.is_over():
        game = game.play(rng.choice(game.legal_moves()))
        if sum(game.pits) <= TABLE_SEEDS and not game.is_over() and rng.random() < 0.3:
            positions.append(game.position)
            break
generated = time.perf_counter() - started

started = time.perf_counter()
values = tables.values("kalah", positions)
labelled = time.perf_counter() - started
print(f"{len(positions)} positions generated in {generated:.1f} s; labelled in {labelled:.3f} s: "
      f"{len(positions) / labelled:,.0f} positions/s")
wins = sum(v > 0 for v in values)
draws = sum(v == 0 for v in values)
print(f"mover wins {wins}, draws {draws}, loses {len(values) - wins - draws}; "
      f"e.g. {positions[0]} -> {values[0]:+d}")
