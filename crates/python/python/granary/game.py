"""A game of Kalah, Oware or Bao: its rules and options, a start position and the moves played
since, as the engine plays them (:class:`Game`); and every game the engine knows
(:func:`catalogue`)."""

from __future__ import annotations

import typing as _typing

from . import _granary
from ._native import _OPTIONS, _counts, _move_text, _options

if _typing.TYPE_CHECKING:
    from typing import List, Optional, Sequence, Tuple, Union


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
        self._shown = _granary.show(self._native(), position, list(self.moves))

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


def catalogue() -> list:
    """Every game, its options and their defaults."""
    return _granary.catalogue()
