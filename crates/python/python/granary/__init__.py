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
"""

from __future__ import annotations

import json as _json
import operator as _operator
import typing as _typing
from dataclasses import dataclass as _dataclass
from dataclasses import field as _field

import numpy as _np

from . import _granary
from ._granary import TableError

if _typing.TYPE_CHECKING:
    from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

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

Progress = _typing.Callable[[str, dict], None]
"""A progress callback: ``(kind, data)`` with kind ``planned`` (data: the table plan's fields),
``layer_started``, ``layer_done``, ``bounds``, ``settled`` or ``tick`` (a long search's report
every minute), and for Bao's :func:`bao.prove` ``depth``; data the event's fields as the
library names them."""

ReviewProgress = _typing.Callable[[int, int, dict], None]
"""A review's progress callback (:meth:`Tablebase.review`): ``(done, total, ply)`` once a ply
as it is answered, in order: ``done`` plies of ``total`` (the game's moves) reviewed, ``ply``
the one just answered as :attr:`Review.plies` has it. An exception it raises stops the review
and is raised by the review as it is."""

_OPTIONS = ("pits", "seeds", "rules", "sweep", "nyumba", "takasia", "tax")
_WORDS = ("rules", "sweep", "nyumba", "takasia", "tax")


def __dir__() -> List[str]:
    return sorted([*__all__, "__version__"])


def _whole(name: str, value, *, low: int = 0, high: int = 2**32 - 1) -> Optional[int]:
    """``value`` as an int (Python or numpy integers; not bools, floats or text), ``None``
    passed through; outside ``low..=high`` is a ValueError naming ``name``."""
    if value is None:
        return None
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    number = _operator.index(value)
    if number < low:
        least = "1 or more" if low == 1 else f"at least {low}"
        raise ValueError(f"{name}: {number} is out of range: give {least}")
    if number > high:
        raise ValueError(f"{name}: {number} is out of range: at most {high}")
    return number


def _seconds(name: str, value) -> Optional[float]:
    """Seconds, 0 or more, as a float (``None`` passed through: no limit)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(
        value, "__float__"
    ):
        raise ValueError(f"{name} must be a number of seconds, not {value!r}")
    seconds = float(value)
    if not seconds >= 0:
        raise ValueError(f"{name}: {value!r} is not a number of seconds, 0 or more")
    return seconds


def _options(game, options: dict) -> dict:
    """The native module's options: the game's name and every option, checked for type."""
    if not isinstance(game, str):
        raise ValueError(f"game must be a name (kalah, oware, bao), not {game!r}")
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}")
    out = {"game": game}
    # Pits a side within 1 to 8 are the library's check, in its words.
    out["pits"] = _whole("pits", options.get("pits"))
    out["seeds"] = _whole("seeds", options.get("seeds"))
    for key in _WORDS:
        value = options.get(key)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{key} must be a name, not {value!r}")
        out[key] = value
    return out


def _wrap_progress(progress: Optional[Progress]):
    if progress is None:
        return None
    if not callable(progress):
        raise ValueError(f"progress must be a callable (kind, data), not {progress!r}")
    return lambda kind, data: progress(kind, _json.loads(data))


def _wrap_review_progress(progress: Optional[ReviewProgress]):
    """The native module's review callback: ``(done, total, ply)`` with the ply as JSON text,
    handed on with the ply as a dict (as :attr:`Review.plies` has it)."""
    if progress is None:
        return None
    if not callable(progress):
        raise ValueError(f"progress must be a callable (done, total, ply), not {progress!r}")
    return lambda done, total, ply: progress(done, total, _json.loads(ply))


class Game:
    """A game of Kalah, Oware or Bao: its rules and options, a start position and the moves
    played since. Immutable: :meth:`play` returns a new game.

    ``Game("kalah")`` is Kalah(6,4) with empty capture from its start; options are those of
    the ``granary`` command (``pits``, ``seeds``, ``rules``, ``sweep`` for Kalah and Oware;
    ``rules``, ``nyumba``, ``takasia``, ``tax`` for Bao). Moves are pit numbers (1 to the
    pits a side, from the mover's left) for Kalah and Oware, written moves for Bao.
    """

    __slots__ = ("name", "options", "start", "moves", "_shown")

    def __init__(
        self,
        game: str = "kalah",
        *,
        position: Optional[str] = None,
        moves: Sequence[Union[int, str]] = (),
        pits: Optional[int] = None,
        seeds: Optional[int] = None,
        rules: Optional[str] = None,
        sweep: Optional[str] = None,
        nyumba: Optional[str] = None,
        takasia: Optional[str] = None,
        tax: Optional[str] = None,
    ) -> None:
        native = _options(
            game,
            {
                "pits": pits,
                "seeds": seeds,
                "rules": rules,
                "sweep": sweep,
                "nyumba": nyumba,
                "takasia": takasia,
                "tax": tax,
            },
        )
        if position is not None and not isinstance(position, str):
            raise ValueError(f"position must be written in the notation (a str), not {position!r}")
        if isinstance(moves, (str, bytes)):
            raise ValueError(f"moves must be a sequence of moves, not the text {moves!r}")
        self.name = game
        self.options = {k: native[k] for k in _OPTIONS}
        self.start = position
        self.moves = tuple(_move_text(m) for m in moves)
        # Checks everything at once: the options, the position and every move.
        self._shown = _json.loads(_granary.show(self._native(), position, list(self.moves)))

    @classmethod
    def from_pits(
        cls,
        game: str,
        south: Sequence[int],
        north: Sequence[int],
        stores: Tuple[int, int] = (0, 0),
        to_move: str = "S",
        **options,
    ) -> "Game":
        """A Kalah or Oware position from plain lists (or numpy arrays): South's pits and
        North's, each from its owner's first pit; the stores ``(south, north)``; the player to
        move (``"S"`` or ``"N"``)."""
        south = _counts("south", south)
        north = _counts("north", north)
        stores = _counts("stores", stores)
        if len(stores) != 2:
            raise ValueError(f"stores: two counts (south, north), not {stores!r}")
        side = {"S": 0, "N": 1}.get(to_move.upper()) if isinstance(to_move, str) else None
        if side is None:
            raise ValueError(f"to_move: 'S' or 'N', not {to_move!r}")
        # The engine checks the counts against what its packed board holds.
        native = _options(game, options)
        text = _granary.position_of_counts(native, south, north, tuple(stores), side)
        return cls(game, position=text, **options)

    def _native(self) -> dict:
        return {"game": self.name, **self.options}

    def _kalah_or_oware(self) -> None:
        if self.name == "bao":
            raise ValueError("bao has no endgame tables; its rules are in Game")

    def _pits_played(self) -> List[int]:
        return [int(m) for m in self.moves]

    def _bao(self) -> None:
        if self.name != "bao":
            raise ValueError(
                f"{self.name} is not bao: granary.bao is for bao (kalah and oware have solve)"
            )

    @property
    def position(self) -> str:
        """The current position in the project's notation."""
        return self._shown["position"]

    @property
    def to_move(self) -> str:
        """``"south"`` or ``"north"``."""
        return self._shown["to_move"]

    @property
    def pits(self) -> List[int]:
        """Kalah/Oware: South's pits then North's, each from its owner's first pit."""
        self._kalah_or_oware()
        return list(self._shown["pits"])

    @property
    def stores(self) -> Tuple[int, int]:
        """Kalah/Oware: the stores ``(south, north)``."""
        self._kalah_or_oware()
        return tuple(self._shown["stores"])

    def legal_moves(self) -> List[Union[int, str]]:
        """The moves the player to move may play (none when the game is over)."""
        return list(self._shown["legal_moves"])

    def play(self, move: Union[int, str]) -> "Game":
        """The game after ``move``; raises :class:`ValueError` if it is not legal."""
        moves = self.moves + (_move_text(move),)
        return Game(self.name, position=self.start, moves=moves, **self.options)

    def is_over(self) -> bool:
        """Whether the game has ended (no move, or Oware's majority or repetition)."""
        return bool(self._shown["over"])

    @property
    def end(self) -> Optional[str]:
        """How the game ended, if it has."""
        return self._shown["end"]

    def score(self) -> Tuple[int, int]:
        """Kalah/Oware: final stores ``(south, north)`` when over, else the stores now."""
        self._kalah_or_oware()
        final = self._shown.get("final")
        return tuple(final) if final is not None else self.stores

    @property
    def winner(self) -> Optional[str]:
        """Bao: the winner when the game is over."""
        return self._shown.get("winner")

    def to_dict(self) -> dict:
        """Everything the engine says of the position (the CLI's ``show --json``)."""
        return dict(self._shown)

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items() if v is not None)
        return f"Game({self.name!r}{opts}, position={self.position!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, self.position) == (other.name, other.position)

    def __hash__(self) -> int:
        return hash((self.name, self.position))


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
        return cls._from(_json.loads(_granary.record_read(text)))

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
        return cls._from(_json.loads(d))

    def __str__(self) -> str:
        return self.text


def _moves(moves) -> list:
    """Moves from Python: pit numbers, or bao's moves as written."""
    if isinstance(moves, (str, bytes)) or not hasattr(moves, "__iter__"):
        raise ValueError(f"moves must be a sequence of moves, not {moves!r}")
    return [m if isinstance(m, str) else _whole("move", m) for m in moves]


@_dataclass(frozen=True)
class BuildReport:
    """What a build did."""

    tables: str
    max_seeds: int
    positions: int
    built: int
    kept: int
    seconds: float


class Values(_typing.NamedTuple):
    """The values of a batch of positions (:meth:`Tablebase.values`), one entry a position."""

    value: _np.ndarray
    """``int16``: the net score of the seeds on the board for the player to move under perfect
    play; 0 where not covered."""
    covered: _np.ndarray
    """``bool``: whether the tables cover the position (else its ``value`` means nothing)."""


class BestMoves(_typing.NamedTuple):
    """Every move's value and the best moves of a batch of positions
    (:meth:`Tablebase.best_moves`): ``(N,)`` and ``(N, pits)`` arrays, column ``k`` for pit
    ``k + 1`` of the player to move."""

    value: _np.ndarray
    """``int16`` ``(N,)``: the position's value for the player to move; 0 where not covered."""
    covered: _np.ndarray
    """``bool`` ``(N,)``: whether the tables cover the position and every move's result."""
    moves: _np.ndarray
    """``int16`` ``(N, pits)``: each legal move's value for the player to move (what it gains
    now and afterwards); 0 where not legal or not covered."""
    legal: _np.ndarray
    """``bool`` ``(N, pits)``: the legal moves (none where not covered)."""
    best: _np.ndarray
    """``bool`` ``(N, pits)``: the legal moves whose value is the position's."""


def _move_text(move) -> str:
    """A move as the engine reads it: a pit number (int or numpy integer) or written text."""
    if isinstance(move, str):
        return move
    if isinstance(move, bool) or not hasattr(move, "__index__"):
        raise ValueError(f"a move is a pit number or written text, not {move!r}")
    return str(_operator.index(move))


def _counts(name: str, row) -> List[int]:
    """Seed counts as ints (Python or numpy integers), each non-negative."""
    try:
        items = list(row)
    except TypeError:
        raise ValueError(f"{name}: pit counts must be non-negative integers: {row!r}") from None
    if not all(
        not isinstance(x, bool) and hasattr(x, "__index__") and _operator.index(x) >= 0
        for x in items
    ):
        raise ValueError(f"{name}: pit counts must be non-negative integers: {items!r}")
    counts = [_operator.index(x) for x in items]
    big = next((x for x in counts if x > 2**64 - 1), None)
    if big is not None:
        raise ValueError(f"{name}: {big} seeds; the packed board holds at most 255")
    return counts


def _sides(to_move, count: int) -> bytes:
    """``to_move`` of :meth:`Tablebase.values` as one byte a position: 0 South, 1 North."""
    letters = {"S": 0, "N": 1}
    if to_move is None:
        to_move = "S"
    if isinstance(to_move, str):
        side = letters.get(to_move.upper())
        if side is None:
            raise ValueError(f"to_move: side to move {to_move!r} must be S or N")
        return bytes([side]) * count
    sides = _np.asarray(to_move)
    if sides.shape != (count,):
        raise ValueError(
            f"to_move: 'S', 'N', or one side a position ({count}), not shape {sides.shape}"
        )
    if sides.dtype.kind == "U":
        upper = _np.char.upper(sides)
        bad = ~_np.isin(upper, ["S", "N"])
        if bad.any():
            i = int(_np.argmax(bad))
            raise ValueError(f"to_move[{i}]: side to move {str(sides[i])!r} must be S or N")
        return (upper == "N").astype(_np.uint8).tobytes()
    if sides.dtype.kind in "iub" and count > 0:
        bad = (sides != 0) & (sides != 1)
        if bad.any():
            i = int(_np.argmax(bad))
            raise ValueError(f"to_move[{i}]: 0 (South) or 1 (North), not {sides[i]!r}")
        return sides.astype(_np.uint8).tobytes()
    if count == 0:
        return b""
    raise ValueError(f"to_move: 'S', 'N', or one side a position, not {sides.dtype} values")


def _label(directory: str, game, positions, to_move, options: dict, with_moves: bool):
    """Checks a batch for :meth:`Tablebase.values` / :meth:`Tablebase.best_moves` and labels
    it: ``(pits a side, the native answer)``."""
    native = _options(game, options)
    if game == "bao":
        raise ValueError("bao has no endgame tables; its searches are in granary.bao")
    if isinstance(positions, (str, bytes)):
        raise ValueError(
            "positions: a sequence of positions (rows of pit counts, or notation), not one text"
        )
    try:
        rows = _np.asarray(positions)
    except (ValueError, TypeError):
        raise ValueError(
            "positions: rows of pit counts, every row as long (2 x pits a side)"
        ) from None
    if rows.dtype.kind == "U" and rows.ndim == 1:
        if to_move is not None:
            raise ValueError("to_move: positions in the notation say who moves; leave to_move out")
        return _granary.label_text(directory, native, [str(p) for p in rows], with_moves)
    if rows.ndim == 1 and rows.size == 0:
        rows = rows.reshape(0, 2 * (native["pits"] or 6))
    if rows.ndim != 2:
        raise ValueError(
            "positions: an (N, 2 x pits) array of pit counts, one position a row, "
            f"not shape {rows.shape}"
        )
    width = rows.shape[1]
    if width % 2:
        raise ValueError(
            f"positions: rows of {width} pit counts; a row holds both sides' pits, "
            "as many a side"
        )
    if native["pits"] is not None and native["pits"] * 2 != width:
        raise ValueError(
            f"positions: rows of {width} pit counts, but pits={native['pits']} makes rows of "
            f"{2 * native['pits']}"
        )
    native["pits"] = width // 2
    if rows.dtype.kind not in "iu" and rows.size > 0:
        raise ValueError(
            f"positions: pit counts must be non-negative integers, not {rows.dtype} values"
        )
    if rows.size > 0 and rows.dtype.kind == "i" and rows.min() < 0:
        i = int(_np.argmax((rows < 0).any(axis=1)))
        raise ValueError(
            f"positions[{i}]: pit counts must be non-negative integers: {rows[i].tolist()}"
        )
    # Every count as it is (the engine checks each row against what its board holds).
    pits = _np.ascontiguousarray(rows, dtype="<u8")
    sides = _sides(to_move, rows.shape[0])
    answer = _granary.label_pits(directory, native, pits.tobytes(), sides, with_moves)
    return width // 2, answer


class Tablebase:
    """A directory of endgame tables (one file a layer of seeds on the board), opened lazily.

    The directory must exist (an empty one is a table directory with nothing built yet), else
    :class:`TableError` names it; ``create=True`` makes it first."""

    __slots__ = ("directory",)

    def __init__(self, directory: str, *, create: bool = False) -> None:
        if not isinstance(create, bool):
            raise ValueError(f"create must be True or False, not {create!r}")
        self.directory = str(directory)
        _granary.open_tablebase(self.directory, create)

    def query(
        self,
        game: Game,
        *,
        search_seconds: Optional[float] = _granary.DEFAULT_SEARCH_SECONDS,
        time: Optional[float] = _granary.DEFAULT_TIME,
        nodes: Optional[int] = None,
    ) -> Union[Query, Estimate]:
        """The position's value, every move's and a principal variation, from the tables; a
        Kalah position above them is searched exactly over them (``source`` ``search``) when the
        engine's cost model estimates the search at no more than ``search_seconds`` (the
        engine's default, 60 s; ``None``: any search within the model's measured range).

        Beyond that (Oware above its tables, a longer Kalah search, or one beyond the measured
        range) there is no exact answer: the engine searches the position for ``time`` seconds
        (default 1.0), or ``nodes`` nodes where given (the same answer on every run), and the
        answer is an :class:`Estimate`, labelled as one (``estimate``, never ``value``), with
        why it is beyond (``beyond``). ``time=0`` (or ``None``) with no ``nodes`` asks for no
        estimate: such a position raises :class:`TableError` saying why and what answers it on
        this machine."""
        game._kalah_or_oware()
        d = _json.loads(
            _granary.query(
                self.directory,
                game._native(),
                game.start,
                game._pits_played(),
                _seconds("search_seconds", search_seconds),
                _seconds("time", time),
                _whole("nodes", nodes, low=1, high=2**64 - 1),
            )
        )
        return Estimate._from(d) if "beyond" in d else Query._from(d)

    def review(
        self,
        game: str,
        moves: Sequence[Union[int, str]],
        *,
        position: Optional[str] = None,
        search_seconds: Optional[float] = _granary.DEFAULT_SEARCH_SECONDS,
        time: Optional[float] = _granary.REVIEW_TIME,
        nodes: Optional[int] = None,
        progress: Optional[ReviewProgress] = None,
        **options,
    ) -> Review:
        """A game reviewed against perfect play: ``moves`` (pit numbers; bao: moves as
        written) played from ``position`` (or the start of the game ``options`` make: ``pits``,
        ``seeds``, ``rules``, ``sweep``, ...), every position before a move answered as
        :meth:`query` answers it (``search_seconds`` likewise). A position it does not answer
        exactly is a ply whose ``answer`` is ``estimated``: the engine's estimates, searched
        for ``time`` seconds a ply (0.3 by default; ``nodes=N`` for the same estimates on every
        run), with the ``reason``; with ``time=0`` (or ``None``) and no ``nodes``, ``beyond``,
        with its ``reason`` alone (every ply of bao).
        Returns :class:`Review`: a flat dict a move (``pandas.DataFrame(review.plies)``), each
        side's summary, and the game written back as a record.

        ``progress`` (a :data:`ReviewProgress`) is called as ``progress(done, total, ply)``
        once a ply as it is answered, in order: ``done`` plies of ``total`` reviewed, ``ply``
        the dict :attr:`Review.plies` holds for it. The review runs with the GIL released and
        takes it back between plies to call ``progress`` and to run pending signals: an
        exception ``progress`` raises, or a ``KeyboardInterrupt`` (Ctrl-C), stops the review
        before its next ply and is raised as it is.

        The whole game is checked before anything is answered: a move that cannot be played
        raises :class:`ValueError` naming it. Missing or damaged tables, or a failed search,
        raise :class:`TableError`.
        """
        native = _options(game, options)
        if position is not None and not isinstance(position, str):
            raise ValueError(f"position must be written in the notation (a str), not {position!r}")
        d = _granary.review(
            self.directory,
            native,
            position,
            _moves(moves),
            _seconds("search_seconds", search_seconds),
            _seconds("time", time),
            _whole("nodes", nodes, low=1, high=2**64 - 1),
            _wrap_review_progress(progress),
        )
        return Review._from(_json.loads(d))

    def review_record(
        self,
        record: Union["GameRecord", str],
        *,
        search_seconds: Optional[float] = _granary.DEFAULT_SEARCH_SECONDS,
        time: Optional[float] = _granary.REVIEW_TIME,
        nodes: Optional[int] = None,
        progress: Optional[ReviewProgress] = None,
    ) -> Review:
        """The game of ``record`` (a :class:`GameRecord` or its text) reviewed as
        :meth:`review` reviews moves (``search_seconds``, ``time``, ``nodes`` and ``progress``
        likewise);
        :attr:`Review.record` is the record with the review in its comments (the player's own
        comments and tags kept)."""
        text = str(record) if isinstance(record, GameRecord) else record
        if not isinstance(text, str):
            raise ValueError(f"a record is a GameRecord or its text, not {record!r}")
        d = _granary.review_record(
            self.directory,
            text,
            _seconds("search_seconds", search_seconds),
            _seconds("time", time),
            _whole("nodes", nodes, low=1, high=2**64 - 1),
            _wrap_review_progress(progress),
        )
        return Review._from(_json.loads(d))

    def choose(
        self,
        game: Game,
        *,
        search_seconds: Optional[float] = None,
        time: float = _granary.DEFAULT_TIME,
        nodes: Optional[int] = None,
    ) -> Choice:
        """The moves to play in the game's position: perfect where :meth:`query` answers it
        exactly (the tables, or a Kalah search within ``search_seconds``; ``None``: any search
        within the cost model's measured range); otherwise (Oware above its tables, a Kalah
        search beyond the limit or the measured range) the engine's best move over the tables
        present, searched for ``time`` seconds a move (default 1.0), or ``nodes`` nodes where
        given (the same move on every run), which is not perfect play
        (:attr:`Choice.perfect` false, :attr:`Choice.value` ``None``, the engine's estimate in
        :attr:`Choice.estimate`)."""
        game._kalah_or_oware()
        seconds = _seconds("time", time)
        if seconds is None:
            raise ValueError("time must be a number of seconds, not None")
        d = _granary.choose(
            self.directory,
            game._native(),
            game.start,
            game._pits_played(),
            _seconds("search_seconds", search_seconds),
            seconds,
            _whole("nodes", nodes, low=1, high=2**64 - 1),
        )
        return Choice._from(_json.loads(d))

    def values(self, game: str, positions, *, to_move=None, **options) -> Values:
        """The values of many Kalah or Oware positions of one game at once, from the tables
        alone (nothing is searched or built), on every core with the GIL released: for
        labelling data.

        ``positions`` is an ``(N, 2 * pits)`` integer array (numpy, or lists of lists): one
        position a row, South's pits then North's, each from its owner's first pit (as
        :attr:`Game.pits`); ``to_move`` says who moves: ``"S"`` (the default) or ``"N"`` for
        every row, or one entry a row, ``"S"``/``"N"`` or ``0`` (South) / ``1`` (North). The
        stores are not needed: a value is the net score of the seeds on the board for the
        player to move, whatever the stores hold. ``positions`` may instead be a sequence of
        positions in the notation (``to_move`` then left out: the notation says who moves).
        Oware is valued as its tables play it, to the last seed (as :meth:`query`).
        ``options`` are the game's (``rules``, ``sweep``; ``pits`` if given must match the
        rows).

        Returns :class:`Values`: ``value`` (``int16``, one a row) and ``covered`` (``bool``):
        a position the tables do not cover (a layer it needs is not built, or more seeds than
        tables hold) has ``covered`` false and ``value`` 0; it does not fail the batch.
        Damaged tables raise :class:`TableError`; bad input :class:`ValueError`, among it a row
        of more seeds, in a pit or in all, than a position holds (naming the row).

        >>> tb = Tablebase("/tmp/granary-doctest", create=True)
        >>> _ = tb.build(Game("kalah", pits=4), 6)
        >>> v = tb.values("kalah", [[1, 0, 0, 2, 0, 1, 1, 0], [3, 3, 3, 3, 3, 3, 3, 3]])
        >>> v.value.tolist(), v.covered.tolist()    # 24 seeds: beyond these tables
        ([3, 0], [True, False])
        """
        width, answer = _label(self.directory, game, positions, to_move, options, False)
        values, covered, _ = answer
        return Values(_np.frombuffer(values, "<i2"), _np.frombuffer(covered, _np.bool_))

    def best_moves(self, game: str, positions, *, to_move=None, **options) -> BestMoves:
        """Every move's value and the best moves of many Kalah or Oware positions at once,
        from the tables alone, on every core with the GIL released.

        ``positions``, ``to_move`` and ``options`` are as for :meth:`values`. Returns
        :class:`BestMoves`, whose ``(N, pits)`` arrays have column ``k`` for pit ``k + 1`` of
        the player to move (from the mover's first pit, as :meth:`Game.play` numbers moves):
        ``moves`` each move's value for the mover (``int16``, 0 where not legal), ``legal``,
        and ``best`` (legal moves whose value is the position's); ``value`` and ``covered``
        as :meth:`values` has them. A covered position with no legal move (the game is over)
        has no best move.

        >>> tb = Tablebase("/tmp/granary-doctest", create=True)
        >>> _ = tb.build(Game("kalah", pits=4), 6)
        >>> b = tb.best_moves("kalah", [[1, 0, 0, 2, 0, 1, 1, 0]], to_move="N")
        >>> b.value.tolist(), b.moves.tolist(), b.best.tolist()
        ([3], [[0, -5, 3, 0]], [[False, False, True, False]])
        """
        pits, answer = _label(self.directory, game, positions, to_move, options, True)
        values, covered, (moves, legal) = answer
        value = _np.frombuffer(values, "<i2")
        moves = _np.frombuffer(moves, "<i2").reshape(-1, pits)
        legal = _np.frombuffer(legal, _np.bool_).reshape(-1, pits)
        covered = _np.frombuffer(covered, _np.bool_)
        best = legal & (moves == value[:, None])
        return BestMoves(value, covered, moves, legal, best)

    def build(
        self,
        game: Game,
        max_seeds: int,
        *,
        threads: Optional[int] = None,
        memory: Optional[int] = None,
        progress: Optional[Progress] = None,
    ) -> BuildReport:
        """Builds the missing layers ``0..=max_seeds`` of the game's tables (``memory``: the
        builder's budget in bytes; by default the machine's)."""
        game._kalah_or_oware()
        d = _granary.build(
            self.directory,
            game._native(),
            _whole("max_seeds", max_seeds),
            _whole("threads", threads, low=1, high=2**16),
            _whole("memory", memory, high=2**64 - 1),
            _wrap_progress(progress),
        )
        return BuildReport(**_json.loads(d))

    def __repr__(self) -> str:
        return f"Tablebase({self.directory!r})"


def solve(
    game: Game,
    directory: str,
    *,
    threads: Optional[int] = None,
    table_seeds: Optional[int] = None,
    progress: Optional[Progress] = None,
    journal: Optional[str] = None,
) -> Solution:
    """Solves the game's current position exactly (Kalah, Oware), with tables in ``directory``
    planned and built as needed (``table_seeds`` forces their size). With ``journal`` (a file
    path; Kalah), what the solve proves is kept there and a later call with the same journal
    resumes from it; a finished journal answers at once, without tables."""
    game._kalah_or_oware()
    d = _granary.solve(
        str(directory),
        game._native(),
        game.start,
        game._pits_played(),
        _whole("threads", threads, low=1, high=2**16),
        _whole("table_seeds", table_seeds),
        _wrap_progress(progress),
        None if journal is None else str(journal),
    )
    return Solution._from(_json.loads(d))


def catalogue() -> list:
    """Every game, its options and their defaults."""
    return _json.loads(_granary.catalogue())


from . import bao  # noqa: E402  (Bao's searches and engine: a module of their own)
