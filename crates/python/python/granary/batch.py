"""Many Kalah or Oware positions labelled at once from the tables (:meth:`Tablebase.values`,
:meth:`Tablebase.best_moves`): an ``(N, 2 * pits)`` array of pit counts (or positions in the
notation) checked and handed to the engine, numpy arrays back (:class:`Values`,
:class:`BestMoves`)."""

from __future__ import annotations

import typing as _typing

import numpy as _np

from . import _granary
from ._native import _options


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
