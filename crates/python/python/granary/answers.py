"""What the engine answers of a position, as typed objects: a query's values (:class:`Query`,
:class:`MoveValue`), the engine's estimate beyond the exact reach (:class:`Estimate`,
:class:`EstimatedValue`, :class:`EstimatedMove`), a solve (:class:`Solution`,
:class:`RootMove`), the moves to play (:class:`Choice`) and a build's report
(:class:`BuildReport`). Each keeps the engine's answer as it is in ``raw`` where it has one."""

from __future__ import annotations

import typing as _typing
from dataclasses import dataclass as _dataclass
from dataclasses import field as _field

if _typing.TYPE_CHECKING:
    from typing import List, Optional, Tuple


@_dataclass(frozen=True)
class MoveValue:
    """A move and its value for the player to move."""

    pit: int
    value: int
    position: str = ""


@_dataclass(frozen=True)
class RootMove:
    """A root move of a solve and what it is worth: ``value`` is its exact value, or ``None``
    when the solve only proved the move no better than the best (a solve without every move's
    value); ``upper`` is then the most it can be worth (for an exact move, its value)."""

    pit: int
    value: Optional[int]
    upper: int

    @property
    def exact(self) -> bool:
        """Whether :attr:`value` is known (else only :attr:`upper`)."""
        return self.value is not None


@_dataclass(frozen=True)
class Query:
    """What the tables say of a position."""

    value: int
    moves: List[MoveValue]
    best: List[int]
    pv: List[int]
    result: str
    final_stores: Tuple[float, float]
    position: str
    to_move: str
    seeds_on_board: int
    tables: str
    source: str
    raw: dict = _field(repr=False, compare=False)

    @classmethod
    def _from(cls, d: dict) -> "Query":
        return cls(
            value=d["value"],
            moves=[MoveValue(m["move"], m["value"], m.get("position", "")) for m in d["moves"]],
            best=list(d["best"]),
            pv=list(d["pv"]),
            result=d["result"],
            final_stores=tuple(d["final"]),
            position=d["position"],
            to_move=d["to_move"],
            seeds_on_board=d["seeds_on_board"],
            tables=d["tables"],
            source=d["source"],
            raw=d,
        )


@_dataclass(frozen=True)
class EstimatedValue:
    """The engine's estimate of a position, never a proved value: ``value`` in net seeds on
    the board for the player to move, from a search ``depth`` plies deep (captures searched on
    past it) that took ``seconds`` and ``nodes``; ``every_leaf_exact`` whether every leaf of
    that depth was a table value or a finished game (the search's own proof, not granary's rule
    of what is exact: still an estimate). ``str()`` reads ``estimate +3 (depth 18, 1.0 s; not
    proved)``."""

    value: int
    depth: int
    seconds: float
    nodes: int
    every_leaf_exact: bool

    def __str__(self) -> str:
        proof = "every leaf exact" if self.every_leaf_exact else "not proved"
        return f"estimate {self.value:+d} (depth {self.depth}, {self.seconds:.1f} s; {proof})"


@_dataclass(frozen=True)
class EstimatedMove:
    """A legal move and the engine's estimate of it: ``estimate`` its estimated value when
    ``bound`` is ``"estimate"``, or (``bound`` ``"at_most"``) the most the search proved it
    worth (it cut the move off below the best)."""

    pit: int
    estimate: int
    bound: str


@_dataclass(frozen=True)
class Estimate:
    """The engine's estimate of a position beyond what granary answers exactly
    (:meth:`Tablebase.query` with a ``time`` or ``nodes``): no ``value``, but ``estimate``
    (:class:`EstimatedValue`, labelled as one), the engine's ``best`` move (``None`` when the
    game is over), its line ``pv``, every move's estimate or bound (``moves``), and
    ``beyond``: why the position has no exact answer here, in a plain clause."""

    estimate: EstimatedValue
    best: Optional[int]
    pv: List[int]
    moves: List[EstimatedMove]
    beyond: str
    position: str
    to_move: str
    seeds_on_board: int
    tables: str
    raw: dict = _field(repr=False, compare=False)

    @classmethod
    def _from(cls, d: dict) -> "Estimate":
        return cls(
            estimate=EstimatedValue(**d["estimate"]),
            best=d["best"],
            pv=list(d["pv"]),
            moves=[EstimatedMove(m["move"], m["estimate"], m["bound"]) for m in d["moves"]],
            beyond=d["beyond"],
            position=d["position"],
            to_move=d["to_move"],
            seeds_on_board=d["seeds_on_board"],
            tables=d["tables"],
            raw=d,
        )


@_dataclass(frozen=True)
class Solution:
    """An exact solve of a position."""

    value: int
    result: str
    best: List[int]
    pv: List[int]
    moves: List[RootMove]
    final_stores: Tuple[float, float]
    variant: str
    position: str
    to_move: str
    tables: str
    nodes: int
    seconds: float
    table_seconds: float
    raw: dict = _field(repr=False, compare=False)

    @classmethod
    def _from(cls, d: dict) -> "Solution":
        return cls(
            value=d["value"],
            result=d["result"],
            best=list(d["best"]),
            pv=list(d["pv"]),
            moves=[
                RootMove(m["move"], m.get("value"), m["value"] if "value" in m else m["upper"])
                for m in d["moves"]
            ],
            final_stores=tuple(d["final"]),
            variant=d["variant"],
            position=d["position"],
            to_move=d["to_move"],
            tables=d["tables"],
            nodes=d["nodes"],
            seconds=d["seconds"],
            table_seconds=d["table_seconds"],
            raw=d,
        )


@_dataclass(frozen=True)
class Choice:
    """The moves to play in a position (:meth:`Tablebase.choose`): ``best`` the pits of the best
    moves found and ``after`` the position each leads to; ``perfect`` whether they are proved
    best (``source`` ``tables`` or ``search``), with ``value`` the position's exact value for the
    player to move; or the engine's one best move (``source`` ``estimate``: Oware beyond its
    tables, or a Kalah search beyond the limit or the cost model's measured range), which is
    not perfect play: ``value`` is then ``None`` and ``estimate`` (:class:`EstimatedValue`)
    holds the engine's estimate, with its depth, seconds and nodes."""

    best: List[int]
    after: List[str]
    value: Optional[int]
    estimate: Optional[EstimatedValue]
    perfect: bool
    source: str

    @classmethod
    def _from(cls, d: dict) -> "Choice":
        estimate = d.get("estimate")
        return cls(
            best=list(d["best"]),
            after=list(d["after"]),
            value=d.get("value"),
            estimate=None if estimate is None else EstimatedValue(**estimate),
            perfect=d["perfect"],
            source=d["source"],
        )



@_dataclass(frozen=True)
class BuildReport:
    """What a build did."""

    tables: str
    max_seeds: int
    positions: int
    built: int
    kept: int
    seconds: float
