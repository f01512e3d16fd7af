"""granary and OpenSpiel: positions both ways, and a bot for OpenSpiel's loops that plays
perfectly where granary's tables or search reach (all of Kalah; Oware within its tables) and
says where it does not (:class:`GranaryBot`).

OpenSpiel (``pip install open_spiel``) is optional: importing this module without it raises
:class:`ImportError`. Two OpenSpiel games map onto granary's:

- ``mancala`` is Kalah(6,4) with standard capture (the seed landing in an own empty pit takes
  the opposite pit only when that holds seeds) and the seeds left on the board going to the
  side they are on: ``granary.Game("kalah", rules="standard")``. Every game maps move for move.
- ``oware`` (parameters ``num_houses_per_player``, ``num_seeds_per_house``) is Oware(m,n) under
  granary's ``abapa`` rules (a grand slam captures nothing; a player must feed an opponent who
  has no seeds; a repeated position ends the game and each player takes the seeds on their
  side). Not ``awari``: there a grand slam is illegal unless forced, and then captures.
  Played side by side over random games, OpenSpiel's oware and ``abapa`` agree on every move,
  on when every game ends and on its winner; they differ in one thing only, the final score of
  a game ended by a majority (a player holding more than half of all seeds): OpenSpiel then
  moves the seeds left on the board to the store of the side they lie on, granary ends with the
  board as it stands (``Game.score()`` counts the stores alone). :func:`from_state` maps such a
  state to the granary game of the same moves and checks the score as OpenSpiel counts it.
  OpenSpiel also stops every oware game at 1000 moves (it refuses a 1001st), granary has no
  such limit. A state granary cannot hold (more than 8 houses a side, more than 255 seeds) or
  one that the checks find different is refused with :class:`ValueError`.

Moves: OpenSpiel's mancala actions are 1..6 for South (player 0) and 8..13 for North (player 1),
granary's pit numbers 1..6 from the mover's left; OpenSpiel's oware actions are 0..m-1 for
either player, granary's pits 1..m. States are matched by replaying their moves from the start
(OpenSpiel cannot set a board from Python), and checked pit for pit and store for store.

    >>> import pyspiel, granary.openspiel as gos
    >>> state = pyspiel.load_game("mancala").new_initial_state()
    >>> state.apply_action(3)
    >>> gos.from_state(state).position
    '4,4,0,5,5,5/4,4,4,4,4,4 1-0 S'

Reviews: :func:`review` reviews the moves of an OpenSpiel state's history against perfect play
(:meth:`granary.Tablebase.review` of the granary game :func:`from_state` maps and checks, from
the start): a flat dict a move, each with the granary pit of the OpenSpiel action played, and
each side's summary. The Oware majority difference above applies to reviews as it stands: it
concerns the final score OpenSpiel counts, not a move, an end or a winner, and a review concerns
moves, so an Oware game OpenSpiel ends by a majority is reviewed move for move like any other.
A review's values and losses are granary's (net seeds on the board under perfect play, Oware
played to the last seed as its tables are), not OpenSpiel's returns.

    >>> import granary
    >>> game = pyspiel.load_game("oware", {"num_houses_per_player": 3, "num_seeds_per_house": 2})
    >>> _ = granary.Tablebase("/tmp/granary-doctest", create=True).build(
    ...     granary.Game(**gos.options_for(game)), 12)
    >>> state = game.new_initial_state()
    >>> for action in (0, 1, 2):
    ...     state.apply_action(action)
    >>> review = gos.review(state, "/tmp/granary-doctest")
    >>> [(p["side"], p["move"], p["best"], p["loss"]) for p in review.plies]
    [('south', 1, [3], 8), ('north', 2, [1], 2), ('south', 3, [3], 0)]
"""

from __future__ import annotations

import os
from typing import Dict, Optional, Sequence, Union

try:
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "granary.openspiel needs OpenSpiel's Python package: pip install open_spiel"
    ) from err

import granary

__all__ = [
    "GranaryBot",
    "action_of_pit",
    "from_state",
    "game_for",
    "options_for",
    "pit_of_action",
    "review",
    "to_state",
]

_MANCALA_PITS = 6
_MANCALA_SEEDS = 4


def _short_name(game) -> str:
    return game.get_type().short_name


def options_for(game) -> Dict[str, object]:
    """granary's name and options (``granary.Game(**options_for(g))``) for the OpenSpiel game
    ``game`` (``mancala`` or ``oware``); :class:`ValueError` for any other."""
    name = _short_name(game)
    if name == "mancala":
        return {
            "game": "kalah",
            "pits": _MANCALA_PITS,
            "seeds": _MANCALA_SEEDS,
            "rules": "standard",
            "sweep": "owner",
        }
    if name == "oware":
        params = game.get_parameters()
        return {
            "game": "oware",
            "pits": int(params["num_houses_per_player"]),
            "seeds": int(params["num_seeds_per_house"]),
            "rules": "abapa",
        }
    raise ValueError(f"OpenSpiel game '{name}' has no granary counterpart: use mancala or oware")


def _new_game(options: Dict[str, object], moves: Sequence[int] = ()) -> granary.Game:
    opts = dict(options)
    return granary.Game(opts.pop("game"), moves=list(moves), **opts)


def pit_of_action(game, action: int) -> int:
    """granary's pit number (1 from the mover's left) for an OpenSpiel action of ``game``."""
    name = _short_name(game)
    action = int(action)
    if name == "mancala":
        if 1 <= action <= _MANCALA_PITS:
            return action
        if _MANCALA_PITS + 2 <= action <= 2 * _MANCALA_PITS + 1:
            return action - _MANCALA_PITS - 1
        raise ValueError(f"action {action} is not a pit of OpenSpiel's mancala (1..6, 8..13)")
    options = options_for(game)
    if not 0 <= action < options["pits"]:
        raise ValueError(
            f"action {action} is not a house of OpenSpiel's oware (0..{options['pits'] - 1})"
        )
    return action + 1


def action_of_pit(state, pit: int) -> int:
    """The OpenSpiel action that plays granary's pit ``pit`` for the player to move in
    ``state``."""
    game = state.get_game()
    options = options_for(game)
    pit = int(pit)
    if not 1 <= pit <= options["pits"]:
        raise ValueError(f"pit {pit} does not exist: a side has 1 to {options['pits']} pits")
    if _short_name(game) == "mancala":
        return pit if state.current_player() == 0 else pit + _MANCALA_PITS + 1
    return pit - 1


def _board(state) -> Dict[str, object]:
    """What an OpenSpiel state shows: South's pits, North's, the stores (South, North), the
    player to move ("S"/"N"; None when over) and whether it is over."""
    game = state.get_game()
    options = options_for(game)
    m = options["pits"]
    over = state.is_terminal()
    if _short_name(game) == "mancala":
        t = [round(x) for x in state.observation_tensor(0)]
        board, player = t[: 2 * m + 2], t[2 * m + 2]
        south, north = board[1 : m + 1], board[m + 2 : 2 * m + 2]
        stores = (board[m + 1], board[0])
    else:
        total = 2 * m * options["seeds"]
        t = [round(x * total) for x in state.observation_tensor(0)]
        south, north = t[:m], t[m : 2 * m]
        stores = (t[2 * m], t[2 * m + 1])
        player = None if over else state.current_player()
    to_move = None if over or player is None else ("S" if player == 0 else "N")
    return {"south": south, "north": north, "stores": stores, "to_move": to_move, "over": over}


def _openspiel_final(game: granary.Game) -> tuple:
    """The final score OpenSpiel counts for a granary game that is over: as granary's, but an
    Oware game ended by a majority adds the seeds left on the board to their side's store."""
    if game.name == "oware" and game.end == "majority":
        (south, north), (own_south, own_north) = game.stores, _halves(game)
        return (south + sum(own_south), north + sum(own_north))
    return tuple(game.score())


def _mismatch(state, game: granary.Game) -> Optional[str]:
    """How the granary game and the OpenSpiel state differ, or None when they agree."""
    board = _board(state)
    if board["over"] != game.is_over():
        return (
            f"OpenSpiel says the game is {'over' if board['over'] else 'not over'}, "
            f"granary says {'over' if game.is_over() else 'not over'} ({game.end or 'playing'})"
        )
    if board["over"]:
        if game.name == "kalah":
            # OpenSpiel leaves the last seeds on the board and counts them for their side.
            theirs = tuple(board["stores"])
            if (board["south"], board["north"]) != _halves(game) or theirs != tuple(game.stores):
                return f"board {board['south']}/{board['north']} {theirs} against granary's {game.position}"
            theirs = (theirs[0] + sum(board["south"]), theirs[1] + sum(board["north"]))
        else:
            # OpenSpiel moves every seed left on the board to a store when a game ends.
            theirs = tuple(board["stores"])
        ours = _openspiel_final(game)
        if theirs != ours:
            return f"final score {theirs[0]}-{theirs[1]} in OpenSpiel, {ours[0]}-{ours[1]} in granary ({game.end})"
        return None
    mine = {
        "south": _halves(game)[0],
        "north": _halves(game)[1],
        "stores": tuple(game.stores),
        "to_move": _side(game.to_move),
    }
    theirs = {k: board[k] for k in mine}
    theirs["stores"] = tuple(theirs["stores"])
    for key in ("south", "north", "stores", "to_move"):
        if mine[key] != theirs[key]:
            return f"{key}: {theirs[key]} in OpenSpiel, {mine[key]} in granary ({game.position})"
    return None


def _side(to_move: str) -> str:
    """``"S"`` or ``"N"`` from either spelling granary uses (``"S"``, ``"south"``)."""
    return str(to_move)[:1].upper()


def _halves(game: granary.Game) -> tuple:
    pits = game.pits
    m = len(pits) // 2
    return (pits[:m], pits[m:])


def from_state(state) -> granary.Game:
    """The granary game of an OpenSpiel ``mancala`` or ``oware`` state: the same options and
    the same moves from the start, checked against the state's board, stores, player to move
    and end. :class:`ValueError` for another game, or a state whose end granary's rules do not
    share."""
    os_game = state.get_game()
    options = options_for(os_game)
    pits = [pit_of_action(os_game, a) for a in state.history()]
    try:
        game = _new_game(options, pits)
    except ValueError as err:
        raise ValueError(
            f"OpenSpiel state after {len(pits)} moves has no granary game: {err}"
        ) from None
    board = _board(state)
    if not board["over"]:
        # The state's own counts, checked as the engine checks any position given as numbers.
        opts = {k: v for k, v in options.items() if k != "game"}
        try:
            granary.Game.from_pits(
                options["game"], board["south"], board["north"], board["stores"],
                board["to_move"], **opts,
            )
        except ValueError as err:
            raise ValueError(
                f"OpenSpiel state after {len(pits)} moves has no granary position: {err}"
            ) from None
    why = _mismatch(state, game)
    if why is not None:
        raise ValueError(
            f"OpenSpiel {_short_name(os_game)} state after {len(pits)} moves cannot be mapped to granary: {why}"
        )
    return game


def _tablebase(tablebase) -> granary.Tablebase:
    """The tables a review reads: a :class:`granary.Tablebase`, a directory, or ``None`` for the
    directory the ``granary`` command reads by default (``$GRANARY_TABLES``, else
    ``data/tables``)."""
    if tablebase is None:
        tablebase = os.environ.get("GRANARY_TABLES", "data/tables")
    if isinstance(tablebase, granary.Tablebase):
        return tablebase
    if isinstance(tablebase, (str, os.PathLike)):
        return granary.Tablebase(os.fspath(tablebase))
    raise ValueError(f"tablebase: a granary.Tablebase or a directory, not {tablebase!r}")


def review(
    state,
    tablebase: Union[granary.Tablebase, str, "os.PathLike[str]", None] = None,
    *,
    search_seconds: Optional[float] = granary._granary.DEFAULT_SEARCH_SECONDS,
    time: Optional[float] = granary._granary.REVIEW_TIME,
    nodes: Optional[int] = None,
    progress: Optional[granary.ReviewProgress] = None,
) -> granary.Review:
    """The moves of an OpenSpiel ``mancala`` or ``oware`` state's history reviewed against
    perfect play: :meth:`granary.Tablebase.review` of the granary game :func:`from_state` maps
    and checks (the same options, a pit an action, from the start), one ply an action of
    ``state.history()``.

    ``tablebase`` is a :class:`granary.Tablebase` or its directory; ``None`` is the directory
    the ``granary`` command reads by default (``$GRANARY_TABLES``, else ``data/tables``). The
    tables are read, not built: give the tables a :class:`GranaryBot` builds for the game (its
    ``directory``). ``search_seconds``, ``time`` and ``nodes`` are as for
    :meth:`granary.Tablebase.review`: a position neither the tables nor a search that long
    answer is a ply whose ``answer`` is ``estimated``, with the engine's estimates searched for
    ``time`` seconds (or ``nodes`` nodes) a ply, never a value or a mark (``time=0``:
    ``beyond``, no estimate); ``progress`` hears each ply as it is answered, as for
    :meth:`granary.Tablebase.review`.

    :class:`ValueError` (one line) for another game, a history with a move by anyone but the
    two players (a chance or simultaneous node: these games have none), or a state granary
    cannot hold or whose end it does not share (as :func:`from_state`); a missing table
    directory, missing or damaged tables, or a failed search raise :class:`granary.TableError`.
    """
    for number, step in enumerate(state.full_history(), start=1):
        if step.player not in (0, 1):
            raise ValueError(
                f"OpenSpiel history move {number} (action {step.action}) is made by player "
                f"{step.player}, not player 0 or 1: granary's games have no chance or "
                "simultaneous moves"
            )
    game = from_state(state)
    tables = _tablebase(tablebase)
    options = options_for(state.get_game())
    name = options.pop("game")
    return tables.review(
        name,
        [int(m) for m in game.moves],
        search_seconds=search_seconds,
        time=time,
        nodes=nodes,
        progress=progress,
        **options,
    )


def _start_position(game: granary.Game) -> str:
    return granary.Game(
        game.name, **{k: v for k, v in game.options.items() if v is not None}
    ).position


def game_for(game: granary.Game):
    """The OpenSpiel game (``pyspiel.Game``) of a granary game, or :class:`ValueError` when
    OpenSpiel has none: its mancala is Kalah(6,4) with standard capture and owner sweep only,
    its oware follows the abapa rules."""
    opts = {k: v for k, v in game.options.items() if v is not None}
    if game.name == "kalah":
        want = {
            "pits": _MANCALA_PITS,
            "seeds": _MANCALA_SEEDS,
            "rules": "standard",
            "sweep": "owner",
        }
        have = {
            "pits": opts.get("pits", 6),
            "seeds": opts.get("seeds", 4),
            "rules": opts.get("rules", "empty"),
            "sweep": opts.get("sweep", "owner"),
        }
        if have != want:
            wrong = ", ".join(f"{k} {have[k]}" for k in want if have[k] != want[k])
            raise ValueError(
                f"OpenSpiel's mancala is Kalah(6,4) with standard capture and owner sweep; this game has {wrong}"
            )
        return pyspiel.load_game("mancala")
    if game.name == "oware":
        rules = opts.get("rules", "abapa")
        if rules != "abapa":
            raise ValueError(
                f"OpenSpiel's oware follows the abapa rules; this game has rules {rules}"
            )
        return pyspiel.load_game(
            "oware",
            {
                "num_houses_per_player": int(opts.get("pits", 6)),
                "num_seeds_per_house": int(opts.get("seeds", 4)),
            },
        )
    raise ValueError(f"OpenSpiel has no {game.name}: kalah and oware map to mancala and oware")


def to_state(game: granary.Game):
    """The OpenSpiel state of a granary game played from its start: the game's moves replayed
    in OpenSpiel and checked. :class:`ValueError` when OpenSpiel has no such game, when the
    game starts from a written position other than the start (OpenSpiel cannot set a board from
    Python), or when a move or the end differs."""
    os_game = game_for(game)
    if game.start is not None and granary.Game(
        game.name, position=game.start, **{k: v for k, v in game.options.items() if v is not None}
    ).position != _start_position(game):
        raise ValueError(
            "OpenSpiel states start from the start position; this game starts from "
            f"{game.start!r}: play its moves from the start instead"
        )
    state = os_game.new_initial_state()
    for number, pit in enumerate(game.moves, start=1):
        if state.is_terminal():
            raise ValueError(f"moves: move {number} (pit {pit}): OpenSpiel's game is already over")
        action = action_of_pit(state, int(pit))
        if action not in state.legal_actions():
            raise ValueError(f"moves: move {number} (pit {pit}) is not legal in OpenSpiel")
        state.apply_action(action)
    why = _mismatch(state, game)
    if why is not None:
        raise ValueError(f"granary game cannot be mapped to OpenSpiel: {why}")
    return state


class GranaryBot(pyspiel.Bot):
    """A granary player for OpenSpiel's ``mancala`` and ``oware``: perfect play wherever the
    engine can give it, and said plainly where it cannot.

    The bot builds endgame tables of up to ``table_seeds`` seeds on the board in ``directory``
    (made if missing) when it is made, then asks granary for every move
    (:meth:`granary.Tablebase.choose`). Kalah (OpenSpiel's mancala) is played perfectly
    throughout: positions the tables hold are read from them, and the others are solved exactly
    by a search over them (unless ``search_seconds`` limits that search; see below).

    Oware is played perfectly only while the seeds on the board are within the tables. Above
    them granary does not search Oware exactly (its positions repeat), and the bot plays the
    engine's move: the best of a deep search over the tables for ``time`` seconds a move
    (default 1.0), or ``nodes`` nodes where given (the same move on every run), which is good
    play but **not perfect play**: it can lose a position that perfect play would win, and
    :meth:`choice` says so (``perfect`` false, no ``value``, the engine's ``estimate``). So give
    Oware the tables its seeds need (``table_seeds`` = every seed of the game, the default when
    the game has at most 24; otherwise 16, and play above 16 seeds is not perfect).
    ``search_seconds`` (``None``: no limit) caps the estimated time of a Kalah search; a Kalah
    position whose search would take longer is then played like Oware above its tables, by the
    engine. ``threads`` is the threads of the table build; the exact searches for moves use
    every core, the engine one.

    For OpenSpiel's mancala (Kalah(6,4)) the default 16-seed tables build in about 20 s and
    the first moves, solved exactly, take about a minute each on two busy cores, later ones a
    fraction of a second. Among the best moves the bot prefers one that leads to a position not
    seen before in the game, so a won game is not drawn out by repetition.
    """

    def __init__(
        self,
        game,
        directory: str,
        *,
        table_seeds: Optional[int] = None,
        time: float = granary._granary.DEFAULT_TIME,
        nodes: Optional[int] = None,
        search_seconds: Optional[float] = None,
        threads: Optional[int] = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        self._options = options_for(game)
        self._game = game
        total = 2 * int(self._options["pits"]) * int(self._options["seeds"])
        if table_seeds is None:
            table_seeds = total if total <= 24 else 16
        if not isinstance(table_seeds, int) or isinstance(table_seeds, bool) or table_seeds < 0:
            raise ValueError(f"table_seeds: a count of seeds, 0 or more, not {table_seeds!r}")
        if isinstance(time, bool) or not isinstance(time, (int, float)) or not 0 < time <= 3600:
            raise ValueError(f"time: seconds a move, more than 0 and at most 3600, not {time!r}")
        if nodes is not None and (
            not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 1
        ):
            raise ValueError(f"nodes: a budget of nodes a move, 1 or more, not {nodes!r}")
        self._tablebase = granary.Tablebase(str(directory), create=True)
        self.table_seeds = min(table_seeds, total)
        self.time = float(time)
        self.nodes = nodes
        self.search_seconds = search_seconds
        self._threads = threads
        self._seen: set = set()
        self._tablebase.build(_new_game(self._options), self.table_seeds, threads=threads)

    # --- pyspiel.Bot -------------------------------------------------------------------------

    def restart(self) -> None:
        self._seen = set()

    def restart_at(self, state) -> None:
        self._seen = set()

    def inform_action(self, state, player_id, action) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def step(self, state) -> int:
        game = from_state(state)
        pit = self.best_move(game)
        return action_of_pit(state, pit)

    # --- granary ------------------------------------------------------------------------------

    def choice(self, game: granary.Game) -> granary.Choice:
        """What granary says to play in ``game`` (:meth:`granary.Tablebase.choose`), with
        whether it is perfect play (and, where it is not, the engine's estimate)."""
        return self._tablebase.choose(
            game, search_seconds=self.search_seconds, time=self.time, nodes=self.nodes
        )

    def best_move(self, game: granary.Game) -> int:
        """The pit the bot plays in ``game`` (a granary game of its OpenSpiel game)."""
        self._seen.add(game.position)
        choice = self.choice(game)
        after = dict(zip(choice.best, choice.after))
        fresh = [p for p in choice.best if after[p] not in self._seen]
        pit = (fresh or choice.best)[0]
        self._seen.add(after[pit])
        return pit
