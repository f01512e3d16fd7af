"""Bao: proof searches and the playing engine (Bao has no endgame tables).

Every function takes a :class:`granary.Game` of Bao (its rules, start or written position, and
the moves played); moves are written as in the project's notation (``A6R``, ``b2L``, ``A3Ls``).

    >>> import granary
    >>> game = granary.Game("bao", rules="kujifunza")
    >>> proof = granary.bao.prove(game, 3)        # a forced result within 3 moves?
    >>> proof.value, proof.search
    ('unknown', 'depth')
    >>> move = granary.bao.choose(game, seconds=0.05)
    >>> move.move in game.legal_moves()
    True

Searches release the GIL. Bad input (a game that is not Bao, a depth below 0, no time to
think) raises :class:`ValueError`.
"""

from __future__ import annotations

import typing as _typing
from dataclasses import dataclass as _dataclass
from dataclasses import field as _field

from . import _granary
from ._native import _progress, _whole

if _typing.TYPE_CHECKING:
    from typing import List, Optional, Tuple

    from . import Game
    from ._native import Progress

__all__ = ["Proof", "EngineMove", "prove", "prove_pns", "choose", "hint", "PNS_NODES"]

PNS_NODES = 2_000_000
"""Tree nodes of the default proof-number search (about 150 MB), as ``granary solve bao``."""


def __dir__() -> List[str]:
    return sorted(__all__)


@_dataclass(frozen=True)
class Proof:
    """What a Bao proof search found, for the player to move."""

    value: str
    """``win``, ``loss`` or ``unknown``."""
    best: Optional[str]
    """The winning move, if a win."""
    pv: List[str]
    """The proof's line (or the most-proving line when unknown)."""
    plies: Optional[int]
    """Plies to the forced end (a depth search's win or loss)."""
    search: str
    """``depth`` (full width to a depth) or ``pns`` (proof-number search)."""
    depth: Optional[int]
    budget: Optional[int]
    nodes: int
    seconds: float
    position: str
    to_move: str
    rules: str
    raw: dict = _field(repr=False, compare=False)

    @classmethod
    def _from(cls, d: dict) -> "Proof":
        return cls(
            value=d["value"],
            best=d["best"],
            pv=list(d["pv"]),
            plies=d.get("plies"),
            search=d["search"],
            depth=d.get("depth"),
            budget=d.get("budget"),
            nodes=d["nodes"],
            seconds=d["seconds"],
            position=d["position"],
            to_move=d["to_move"],
            rules=d["rules"],
            raw=d,
        )


@_dataclass(frozen=True)
class EngineMove:
    """The engine's move."""

    move: str
    position: str
    """The position after it."""
    depth: int
    """The deepest search depth finished."""
    score: float
    """Its score for the mover, in seeds."""
    nodes: int


def _game(game: "Game") -> tuple:
    from . import Game

    if not isinstance(game, Game):
        raise ValueError(f"a granary.Game of bao, not {game!r}")
    game._bao()
    return game._native(), game.start, list(game.moves)


def prove(game: "Game", depth: int, *, progress: Optional[Progress] = None) -> Proof:
    """A full-width proof search for a forced win or loss of the player to move within
    ``depth`` plies (as ``granary solve bao --depth``). ``progress`` hears ``("depth", {"depth",
    "verdict", "seconds"})`` as each depth finishes."""
    options, start, moves = _game(game)
    d = _granary.bao_prove(options, start, moves, _whole("depth", depth), _progress(progress))
    return Proof._from(d)


def prove_pns(game: "Game", nodes: int = PNS_NODES) -> Proof:
    """A proof-number search of at most ``nodes`` tree nodes (as ``granary solve bao``)."""
    options, start, moves = _game(game)
    budget = _whole("nodes", nodes, low=1, high=2**40)
    return Proof._from(_granary.bao_prove_pns(options, start, moves, budget))


def choose(game: "Game", seconds: float = 1.0) -> Optional[EngineMove]:
    """The engine's move within ``seconds`` (more than 0, at most 3600), or ``None`` when the
    player to move has no legal move. Each call searches afresh."""
    options, start, moves = _game(game)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) and not hasattr(
        seconds, "__float__"
    ):
        raise ValueError(f"seconds must be a number, not {seconds!r}")
    d = _granary.bao_choose(options, start, moves, float(seconds))
    if d is None:
        return None
    return EngineMove(d["move"], d["position"], d["depth"], d["score"], d["nodes"])


def hint(game: "Game") -> List[Tuple[str, float]]:
    """Every legal move with the engine's 3-ply score for the mover, in seeds (as ``hint`` in
    ``granary play bao``)."""
    options, start, moves = _game(game)
    return list(_granary.bao_hint(options, start, moves))
