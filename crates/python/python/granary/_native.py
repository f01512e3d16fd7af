"""What Python hands the native module, checked first: a game's options, whole numbers,
seconds, moves and seed counts (a fault raises :class:`ValueError` naming what is wrong, never
a ``TypeError`` from the native layer); and the progress callbacks, checked callable.

Private to the package: its public names are :data:`granary.Progress` and
:data:`granary.ReviewProgress`, the callbacks' types."""

from __future__ import annotations

import operator as _operator
import typing as _typing

if _typing.TYPE_CHECKING:
    from typing import List, Optional

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


def _progress(progress: Optional[Progress]) -> Optional[Progress]:
    """``progress`` checked callable, for the native module to call as ``(kind, data)``;
    ``None`` passed through."""
    if progress is None:
        return None
    if not callable(progress):
        raise ValueError(f"progress must be a callable (kind, data), not {progress!r}")
    return progress


def _review_progress(progress: Optional[ReviewProgress]) -> Optional[ReviewProgress]:
    """``progress`` checked callable, for the native module to call as ``(done, total, ply)``,
    the ply a dict (as :attr:`Review.plies` has it); ``None`` passed through."""
    if progress is None:
        return None
    if not callable(progress):
        raise ValueError(f"progress must be a callable (done, total, ply), not {progress!r}")
    return progress


def _moves(moves) -> list:
    """Moves from Python: pit numbers, or bao's moves as written."""
    if isinstance(moves, (str, bytes)) or not hasattr(moves, "__iter__"):
        raise ValueError(f"moves must be a sequence of moves, not {moves!r}")
    return [m if isinstance(m, str) else _whole("move", m) for m in moves]



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
