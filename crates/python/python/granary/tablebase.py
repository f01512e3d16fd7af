"""A directory of endgame tables (:class:`Tablebase`): a position queried, a game reviewed, the
moves to play chosen, many positions labelled at once, tables built; and a position solved
exactly, tables planned and built as needed (:func:`solve`)."""

from __future__ import annotations

import typing as _typing

import numpy as _np

from . import _granary
from ._native import _moves, _options, _progress, _review_progress, _seconds, _whole
from .answers import BuildReport, Choice, Estimate, Query, Solution
from .batch import BestMoves, Values, _label
from .game import Game
from .review import GameRecord, Review

if _typing.TYPE_CHECKING:
    from typing import Optional, Sequence, Union

    from ._native import Progress, ReviewProgress


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
        d = _granary.query(
            self.directory,
            game._native(),
            game.start,
            game._pits_played(),
            _seconds("search_seconds", search_seconds),
            _seconds("time", time),
            _whole("nodes", nodes, low=1, high=2**64 - 1),
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
            _review_progress(progress),
        )
        return Review._from(d)

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
            _review_progress(progress),
        )
        return Review._from(d)

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
        return Choice._from(d)

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
            _progress(progress),
        )
        return BuildReport(**d)

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
        _progress(progress),
        None if journal is None else str(journal),
    )
    return Solution._from(d)
