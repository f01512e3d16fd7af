"""Games reviewed against perfect play (:class:`Review`: a flat dict a ply, each side's
summary, the game written back as a record) and game records (:class:`GameRecord`: read,
checked, made from moves, written)."""

from __future__ import annotations

import typing as _typing
from dataclasses import dataclass as _dataclass

from . import _granary
from ._native import _moves, _options

if _typing.TYPE_CHECKING:
    from typing import Dict, List, Optional, Sequence, Union


@_dataclass(frozen=True)
class Review:
    """A game reviewed move by move against perfect play (:meth:`Tablebase.review`,
    :meth:`Tablebase.review_record`).

    ``plies`` has one flat dict a move, in order: ``ply`` (1 for the first), ``side``
    (``"south"``/``"north"``), ``move`` (the pit; bao: the move as written), ``position``
    (before the move) and ``answer``:
    ``"exact"`` with ``value`` (the position's, for the mover), ``played`` (the move's),
    ``best`` (the best pits), ``loss`` (``value - played``), ``result`` and ``result_after``
    (``win``/``draw``/``loss`` for the mover before and after the move), ``changed`` (whether
    the move changed the result) and ``source`` (``tables`` or ``search``); or, beyond the
    exact reach, ``"estimated"`` with the engine's estimates in keys of their own (never
    ``value``, ``played`` or ``loss``, and never a mark): ``estimate`` (a dict: ``value``, the
    position's estimate for the mover, ``depth``, ``seconds``, ``nodes``,
    ``every_leaf_exact``), ``estimated_best`` (the pits the engine rates best),
    ``estimate_played`` (its estimate of the move played, from the same search),
    ``estimated_loss`` (``estimate["value"] - estimate_played``) and the ``reason`` no exact
    value is given; or ``"beyond"`` with the ``reason`` alone (no estimate asked; every ply of
    a bao game: bao has no tables).
    ``pandas.DataFrame(review.plies)`` is a table
    of a row a move; a review's ``progress`` callback is handed each of these dicts as its ply
    is answered. ``sides`` is South's summary then North's: ``played`` (moves), ``exact``
    (of those, with exact values), ``kept`` (of those, losing nothing), ``lost`` (seeds lost in
    all), ``first_change`` (the ply of the first move that changed the result, or ``None``),
    ``estimated`` (moves with the engine's estimates instead) and ``estimated_lost`` (their
    estimated losses summed: an estimate, apart from ``lost``).
    ``tables`` is the tables' kind (``None`` for bao); ``setup`` the game in full (``game``,
    every option, the start ``position`` and the ``moves``); ``record`` the game as a record
    (:class:`GameRecord`) with the review written into its comments.
    """

    tables: Optional[str]
    plies: List[dict]
    sides: List[dict]
    setup: dict
    record: str

    @classmethod
    def _from(cls, d: dict) -> "Review":
        return cls(
            tables=d["tables"],
            plies=list(d["plies"]),
            sides=list(d["sides"]),
            setup=dict(d["setup"]),
            record=d["record"],
        )


@_dataclass(frozen=True)
class GameRecord:
    """A game record (``docs/notation.md``, "Game records"): tags naming the game, its options
    and start, then the moves with their marks and comments. :meth:`read` reads and checks
    one (a fault raises :class:`ValueError` naming its line and column), :meth:`of` makes one
    from moves, ``str(record)`` writes it; what is written reads back the same.

    ``game`` is the game in full (``game``, every option, the start ``position``, the
    ``moves``), ``tags`` the tags in the record's order, ``comments`` the game's comments,
    ``moves`` a dict a move (``side``, ``move``, ``mark`` or ``None``, ``comments``) and
    ``text`` the record written out.

        >>> r = GameRecord.read('[Game "kalah"] [Pits "4"] [Seeds "3"]\\n2 S4 {extra turn}')
        >>> [m["side"] for m in r.moves]
        ['south', 'south']
    """

    game: dict
    tags: Dict[str, str]
    comments: List[str]
    moves: List[dict]
    text: str

    @classmethod
    def _from(cls, d: dict) -> "GameRecord":
        return cls(
            game=dict(d["game"]),
            tags=dict(d["tags"]),
            comments=list(d["comments"]),
            moves=list(d["moves"]),
            text=d["text"],
        )

    @classmethod
    def read(cls, text: str) -> "GameRecord":
        """The record ``text``, read and checked."""
        if not isinstance(text, str):
            raise ValueError(f"a record is text (a str), not {text!r}")
        return cls._from(_granary.record_read(text))

    @classmethod
    def of(
        cls,
        game: str,
        moves: Sequence[Union[int, str]],
        *,
        position: Optional[str] = None,
        tags: Optional[Dict[str, str]] = None,
        comments: Sequence[str] = (),
        **options,
    ) -> "GameRecord":
        """The record of ``moves`` (pits; bao: moves as written) played in ``game`` with
        ``options`` (``pits``, ``seeds``, ``rules``, ...) from ``position`` (or the start),
        with ``tags`` that name no rule (``Event``, ``South``, ``North``, ...) and the game's
        ``comments``. An illegal move raises :class:`ValueError` naming it."""
        native = _options(game, options)
        if position is not None and not isinstance(position, str):
            raise ValueError(f"position must be written in the notation (a str), not {position!r}")
        d = _granary.record_new(
            native,
            position,
            _moves(moves),
            [(str(k), str(v)) for k, v in (tags or {}).items()],
            [str(c) for c in comments],
        )
        return cls._from(d)

    def __str__(self) -> str:
        return self.text
