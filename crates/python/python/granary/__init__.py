"""Perfect play for mancala games: Kalah, Oware and Bao, from the granary engine.

The rules (legal moves, playing, game over, score) of Kalah(m,n), Oware(m,n) (abapa, awari)
and Bao; endgame tables built by retrograde analysis; a position's value, every move's value
and a principal variation from them; exact solving of whole games (MTD(f) over the tables).

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

Bad input raises :class:`ValueError`; missing or damaged tables, and builds or searches that
fail, raise :class:`TableError`; both carry the engine's one-line message. Long work (building,
solving, querying) releases the GIL.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence, Tuple, Union

from . import _granary
from ._granary import TableError

__all__ = [
    "Game",
    "Tablebase",
    "Query",
    "MoveValue",
    "RootMove",
    "Solution",
    "BuildReport",
    "TableError",
    "solve",
    "catalogue",
]

Progress = Callable[[str, dict], None]
"""A progress callback: ``(kind, data)`` with kind ``planned`` (data: the table plan's fields),
``layer_started``, ``layer_done``, ``bounds``, ``settled`` or ``tick`` (a long search's report
every minute), data the event's fields as the library names them."""

_OPTIONS = ("pits", "seeds", "rules", "sweep", "nyumba", "takasia", "tax")


def _wrap_progress(progress: Optional[Progress]):
    if progress is None:
        return None
    return lambda kind, data: progress(kind, json.loads(data))


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
        if not isinstance(game, str):
            raise ValueError(f"game must be a name (kalah, oware, bao), not {game!r}")
        self.name = game
        self.options = {
            "pits": pits,
            "seeds": seeds,
            "rules": rules,
            "sweep": sweep,
            "nyumba": nyumba,
            "takasia": takasia,
            "tax": tax,
        }
        self.start = position
        self.moves = tuple(str(m) for m in moves)
        # Checks everything at once: the options, the position and every move.
        self._shown = json.loads(_granary.show(self._native(), position, list(self.moves)))

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
        """A Kalah or Oware position from plain lists: South's pits and North's, each from its
        owner's first pit; the stores ``(south, north)``; the player to move (``"S"`` or
        ``"N"``)."""
        for name, row in (("south", south), ("north", north)):
            if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in row):
                raise ValueError(f"{name}: pit counts must be non-negative integers: {list(row)!r}")
        if len(stores) != 2:
            raise ValueError(f"stores: two counts (south, north), not {stores!r}")
        text = "{}/{} {}-{} {}".format(
            ",".join(map(str, south)),
            ",".join(map(str, north)),
            int(stores[0]),
            int(stores[1]),
            to_move,
        )
        return cls(game, position=text, **options)

    def _native(self) -> dict:
        return {"game": self.name, **self.options}

    def _kalah_or_oware(self) -> None:
        if self.name == "bao":
            raise ValueError("bao has no endgame tables; its rules are in Game")

    def _pits_played(self) -> List[int]:
        return [int(m) for m in self.moves]

    @property
    def position(self) -> str:
        """The current position in the project's notation."""
        return self._shown["position"]

    @property
    def to_move(self) -> str:
        """``"S"`` or ``"N"``."""
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
        return Game(self.name, position=self.start, moves=self.moves + (str(move),), **self.options)

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


@dataclass(frozen=True)
class MoveValue:
    """A move and its value for the player to move."""

    pit: int
    value: int
    position: str = ""


@dataclass(frozen=True)
class RootMove:
    """A root move of a solve: its value, exact or (``exact`` false) an upper bound that
    proves it no better than the best move."""

    pit: int
    value: int
    exact: bool


@dataclass(frozen=True)
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
    raw: dict = field(repr=False, compare=False)

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


@dataclass(frozen=True)
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
    raw: dict = field(repr=False, compare=False)

    @classmethod
    def _from(cls, d: dict) -> "Solution":
        return cls(
            value=d["value"],
            result=d["result"],
            best=list(d["best"]),
            pv=list(d["pv"]),
            moves=[RootMove(m["move"], m["value"], m["exact"]) for m in d["moves"]],
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


@dataclass(frozen=True)
class BuildReport:
    """What a build did."""

    tables: str
    max_seeds: int
    positions: int
    built: int
    kept: int
    seconds: float


class Tablebase:
    """A directory of endgame tables (one file a layer of seeds on the board), opened lazily."""

    __slots__ = ("directory",)

    def __init__(self, directory: str) -> None:
        self.directory = str(directory)

    def query(self, game: Game) -> Query:
        """The position's value, every move's and a principal variation, from the tables (a
        Kalah position a few seeds above them is searched exactly over them)."""
        game._kalah_or_oware()
        d = _granary.query(self.directory, game._native(), game.start, game._pits_played())
        return Query._from(json.loads(d))

    def values(self, game: str, positions: Sequence[str], **options) -> List[int]:
        """The values of many positions (notation) of one game, from the tables alone: fast,
        for labelling data."""
        return _granary.values(self.directory, {"game": game, **_options(options)}, list(positions))

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
            self.directory, game._native(), max_seeds, threads, memory, _wrap_progress(progress)
        )
        return BuildReport(**json.loads(d))

    def __repr__(self) -> str:
        return f"Tablebase({self.directory!r})"


def _options(options: dict) -> dict:
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}")
    return {k: options.get(k) for k in _OPTIONS}


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
        threads,
        table_seeds,
        _wrap_progress(progress),
        None if journal is None else str(journal),
    )
    return Solution._from(json.loads(d))


def catalogue() -> list:
    """Every game, its options and their defaults."""
    return json.loads(_granary.catalogue())
