"""Perfect play for mancala games: Kalah, Oware and Bao, from the granary engine.

The rules (legal moves, playing, game over, score) of Kalah(m,n), Oware(m,n) (abapa, awari)
and Bao; endgame tables built by retrograde analysis; a position's value, every move's value
and a principal variation from them; exact solving of whole games (MTD(f) over the tables);
Bao's proof searches and engine (:mod:`granary.bao`).

    >>> import granary
    >>> game = granary.Game("kalah", pits=4, seeds=3)
    >>> game.legal_moves()
    [1, 2, 3, 4]
    >>> granary.solve(game, "/tmp/granary-doctest").value   # South wins Kalah(4,3) by 8
    8

Positions are written in the project's notation (``docs/notation.md``), e.g.
``"4,4,4,4,4,4/4,4,4,4,4,4 0-0 S"``, or given as lists of pit counts
(:meth:`Game.from_pits`). Values are net scores of the seeds still on the board for the player
to move (seeds the mover will still take minus the opponent's) under perfect play.

For data: :meth:`Tablebase.values` and :meth:`Tablebase.best_moves` label many positions at
once, an ``(N, 2 * pits)`` numpy array of pit counts in, numpy arrays out, with a mask of the
positions the tables cover.

Bad input raises :class:`ValueError`; a missing table directory, missing or damaged tables,
and builds or searches that fail, raise :class:`TableError`; both carry the engine's one-line
message. Long work (building,
solving, querying, reviewing, labelling, Bao's searches) releases the GIL.

Every public name is here (``from granary import Query``); each is defined in a module of its
concept: :mod:`granary.game`, :mod:`granary.tablebase`, :mod:`granary.answers`,
:mod:`granary.review` and :mod:`granary.batch`, beside :mod:`granary.bao` and
:mod:`granary.openspiel`. The engine's answers come from the native module as Python objects,
not text to parse.
"""

from __future__ import annotations

import typing as _typing

from . import _granary
from ._granary import TableError
from ._native import Progress, ReviewProgress
from .answers import (
    BuildReport,
    Choice,
    Estimate,
    EstimatedMove,
    EstimatedValue,
    MoveValue,
    Query,
    RootMove,
    Solution,
)
from .batch import BestMoves, Values
from .game import Game, catalogue
from .review import GameRecord, Review
from .tablebase import Tablebase, solve

if _typing.TYPE_CHECKING:
    from typing import List

__version__: str = _granary.__version__
"""The package's version: the engine's (its Cargo version)."""

__all__ = [
    "Game",
    "Tablebase",
    "Query",
    "MoveValue",
    "Estimate",
    "EstimatedValue",
    "EstimatedMove",
    "RootMove",
    "Solution",
    "Choice",
    "Review",
    "GameRecord",
    "BuildReport",
    "Values",
    "BestMoves",
    "TableError",
    "Progress",
    "ReviewProgress",
    "solve",
    "catalogue",
    "bao",
]


def __dir__() -> List[str]:
    return sorted([*__all__, "__version__"])


from . import bao  # noqa: E402  (Bao's searches and engine: a module of their own)
