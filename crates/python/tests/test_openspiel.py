"""granary.openspiel against OpenSpiel itself: random OpenSpiel games map to granary and back
move for move (legal moves, boards, stores, ends), and the bot keeps every won position won
against OpenSpiel's MCTS bot in OpenSpiel's own evaluation loop. Skipped when OpenSpiel's
Python package (`pip install open_spiel`) is not installed, failed when `CI` is set;
scripts/test-python.sh installs it."""

import importlib
import os
import random
import sys
import types

import pytest

try:
    import pyspiel
except ImportError:  # not installed, or a broken install
    if os.environ.get("CI"):
        raise  # CI installs OpenSpiel (scripts/test-python.sh): its absence is a failure there
    pytest.skip("OpenSpiel is not installed (pip install open_spiel)", allow_module_level=True)

import numpy as np  # noqa: E402  (OpenSpiel depends on numpy)

import granary  # noqa: E402
import granary.openspiel as gos  # noqa: E402

SMALL_OWARE = [
    {"num_houses_per_player": 3, "num_seeds_per_house": 2},
    {"num_houses_per_player": 4, "num_seeds_per_house": 2},
    {"num_houses_per_player": 3, "num_seeds_per_house": 3},
]


def _random_states(game, games: int, seed: int):
    """Every state of `games` random games of `game`, the terminal ones included."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            yield state.clone()
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def _check_round_trip(state) -> granary.Game:
    game = gos.from_state(state)
    assert [gos.pit_of_action(state.get_game(), a) for a in state.history()] == [
        int(m) for m in game.moves
    ]
    assert game.is_over() == state.is_terminal()
    if not state.is_terminal():
        assert (
            sorted(gos.action_of_pit(state, p) for p in game.legal_moves()) == state.legal_actions()
        )
    back = gos.to_state(game)
    assert back.history() == state.history()
    assert str(back) == str(state)
    assert back.is_terminal() == state.is_terminal()
    assert back.returns() == state.returns()
    return game


# --- mapping -----------------------------------------------------------------------------


def test_openspiel_mancala_is_kalah_with_standard_capture_move_for_move():
    game = pyspiel.load_game("mancala")
    assert gos.options_for(game) == {
        "game": "kalah",
        "pits": 6,
        "seeds": 4,
        "rules": "standard",
        "sweep": "owner",
    }
    finished = 0
    for state in _random_states(game, 300, seed=1):
        g = _check_round_trip(state)
        if state.is_terminal():
            finished += 1
            south, north = g.score()
            assert state.returns()[0] == (south > north) - (south < north)
    assert finished == 300


def test_openspiel_oware_is_abapa_move_for_move():
    games = 0
    ends = set()
    for params, count in [({}, 30)] + [(p, 100) for p in SMALL_OWARE]:
        game = pyspiel.load_game("oware", params)
        for state in _random_states(game, count, seed=2):
            g = _check_round_trip(state)
            if state.is_terminal():
                games += 1
                ends.add(g.end)
                south, north = g.score()
                # The winner is the same however the game ended.
                assert state.returns()[0] == (south > north) - (south < north)
    assert games == 330
    assert {"majority", "repetition"} <= ends


def test_a_majority_ends_with_the_board_swept_in_openspiel_only():
    game = pyspiel.load_game("oware")
    seen = 0
    for state in _random_states(game, 40, seed=3):
        if not state.is_terminal():
            continue
        g = gos.from_state(state)
        if g.end != "majority":
            continue
        seen += 1
        board = [round(x * 48) for x in state.observation_tensor(0)]
        assert board[:12] == [0] * 12
        south, north = g.stores
        assert (board[12], board[13]) == (south + sum(g.pits[:6]), north + sum(g.pits[6:]))
        assert tuple(g.score()) == (south, north)
    assert seen > 0


def test_the_awari_rules_are_not_openspiels():
    # Awari forbids the grand slam OpenSpiel plays (capturing nothing): no mapping.
    with pytest.raises(ValueError, match="abapa"):
        gos.game_for(granary.Game("oware", rules="awari"))


def test_games_and_states_openspiel_has_not_are_refused_in_words():
    with pytest.raises(ValueError, match="standard capture"):
        gos.game_for(granary.Game("kalah"))  # empty capture
    with pytest.raises(ValueError, match="seeds 3"):
        gos.game_for(granary.Game("kalah", seeds=3, rules="standard"))
    with pytest.raises(ValueError, match="no bao"):
        gos.game_for(granary.Game("bao"))
    with pytest.raises(ValueError, match="start position"):
        gos.to_state(granary.Game("kalah", rules="standard", position="1,0,0,0,0,5/2,0,0,0,0,0 S"))
    with pytest.raises(ValueError, match="tic_tac_toe"):
        gos.from_state(pyspiel.load_game("tic_tac_toe").new_initial_state())
    # Nine houses a side: OpenSpiel plays it, granary's boards have at most 8 pits.
    big = pyspiel.load_game("oware", {"num_houses_per_player": 9, "num_seeds_per_house": 1})
    with pytest.raises(ValueError, match="9 is out of range"):
        gos.from_state(big.new_initial_state())
    with pytest.raises(ValueError, match="not a pit"):
        gos.pit_of_action(pyspiel.load_game("mancala"), 7)  # South's store


def test_a_written_start_position_maps_like_the_start():
    game = granary.Game("kalah", rules="standard", position="4,4,4,4,4,4/4,4,4,4,4,4 0-0 S").play(3)
    state = gos.to_state(game)
    assert state.history() == [3]
    assert gos.from_state(state).position == game.position


def test_without_openspiel_the_import_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "granary.openspiel")
    with pytest.raises(ImportError, match="pip install open_spiel"):
        importlib.import_module("granary.openspiel")


# --- reviews ---------------------------------------------------------------------------

# Kalah(6,4) tables to 12 seeds (a second to build): the review answers from there on, and
# every position above them is `beyond` (no search: search_seconds 0; no estimate: time 0). Oware(3,2) tables of
# all 12 seeds: every position answered.
REVIEWED = [
    ("mancala", {}, 12),
    ("oware", SMALL_OWARE[0], 12),
]
KINDS = {"mancala": "kalah-6-standard-owner", "oware": "oware-3-abapa"}


@pytest.fixture(scope="module")
def reviewed_tables(tmp_path_factory):
    """{short name: (the OpenSpiel game, a Tablebase with its tables built)}."""
    tables = {}
    for name, params, seeds in REVIEWED:
        game = pyspiel.load_game(name, params)
        tb = granary.Tablebase(str(tmp_path_factory.mktemp(name)))
        tb.build(granary.Game(**gos.options_for(game)), seeds)
        tables[name] = (game, tb)
    return tables


def _prefixes(state):
    """The states before each move of `state`'s history, from the start."""
    game = state.get_game()
    prefix = game.new_initial_state()
    for action in state.history():
        yield prefix.clone(), action
        prefix.apply_action(action)


def _within_tables(tb, state) -> bool:
    """Whether the tables answer the state's position (Kalah above them is not searched, and
    no estimate is asked for)."""
    try:
        tb.query(gos.from_state(state), search_seconds=0, time=0)
    except granary.TableError:
        return False
    return True


def _play_out(game, tb, seed: int, lose_once: bool = False):
    """A game of random moves while the tables do not answer the position, then perfect play
    (the first best move of granary's query, as an OpenSpiel action) to the end; with
    `lose_once`, at the first answered position with a move worse than the best, that move
    instead (the worst). Returns the final state, the ply the tables first answer (1 for the
    first), and the deliberate loss as (ply, seeds lost, the move's value) or None."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    first, lost = None, None
    while not state.is_terminal():
        if not _within_tables(tb, state):
            assert first is None, "a position past the first answered one is not answered"
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        ply = len(state.history()) + 1
        first = first or ply
        query = tb.query(gos.from_state(state), search_seconds=0)
        pit = query.best[0]
        worse = [m for m in query.moves if m.value < query.value]
        if lose_once and lost is None and worse:
            move = min(worse, key=lambda m: m.value)
            pit, lost = move.pit, (ply, query.value - move.value, move.value)
        state.apply_action(gos.action_of_pit(state, pit))
    return state, first, lost


@pytest.mark.parametrize("name", [name for name, _, _ in REVIEWED])
def test_a_random_openspiel_game_is_reviewed_ply_for_ply(name, reviewed_tables):
    game, tb = reviewed_tables[name]
    ends = set()
    answered = 0
    for state in _random_states(game, 6, seed=8):
        if not state.is_terminal():
            continue
        ends.add(gos.from_state(state).end)
        heard = []
        review = gos.review(state, tb, search_seconds=0, time=0,
                            progress=lambda *call: heard.append(call))
        assert review.tables == KINDS[name]
        assert len(review.plies) == len(state.history())
        assert heard == [(i + 1, len(review.plies), p) for i, p in enumerate(review.plies)]
        for (prefix, action), ply in zip(_prefixes(state), review.plies):
            mapped = gos.from_state(prefix)
            assert ply["move"] == gos.pit_of_action(game, action)
            assert ply["position"] == mapped.position
            assert ply["side"] == ("south" if prefix.current_player() == 0 else "north")
            if ply["answer"] == "exact":
                answered += 1
                query = tb.query(mapped, search_seconds=0)
                played = {m.pit: m.value for m in query.moves}[ply["move"]]
                assert (ply["value"], ply["played"], ply["best"]) == (
                    query.value, played, query.best)
                assert ply["loss"] == query.value - played
            else:
                assert ply["answer"] == "beyond" and not _within_tables(tb, prefix)
    assert answered > 0
    if name == "oware":
        # OpenSpiel sweeps the board at a majority, granary does not: reviewed all the same.
        assert "majority" in ends


@pytest.mark.parametrize("name", [name for name, _, _ in REVIEWED])
def test_perfect_play_in_openspiel_reviews_with_no_loss(name, reviewed_tables):
    game, tb = reviewed_tables[name]
    for seed in range(3):
        state, first, lost = _play_out(game, tb, seed=10 + seed)
        assert lost is None and first is not None
        if name == "oware":
            assert first == 1  # the tables hold every seed: perfect play from the first move
        review = gos.review(state, tb, search_seconds=0, time=0)
        assert len(review.plies) == len(state.history())
        # Before the tables answer (Kalah above them, not searched nor estimated): no value,
        # so no loss.
        assert all(p["answer"] == "beyond" for p in review.plies[: first - 1])
        played = review.plies[first - 1 :]
        assert played and all(p["answer"] == "exact" for p in played)
        assert [p["loss"] for p in played] == [0] * len(played)
        assert not any(p["changed"] for p in played)
        assert all(p["move"] in p["best"] for p in played)


@pytest.mark.parametrize("name", [name for name, _, _ in REVIEWED])
def test_a_move_played_to_lose_is_marked_with_its_loss(name, reviewed_tables):
    game, tb = reviewed_tables[name]
    marked = 0
    for seed in range(3):
        state, first, lost = _play_out(game, tb, seed=20 + seed, lose_once=True)
        if lost is None:
            continue  # no answered position had a worse move
        ply, loss, value = lost
        assert loss > 0
        review = gos.review(state, tb, search_seconds=0, time=0)
        assert review.plies[ply - 1]["loss"] == loss
        assert review.plies[ply - 1]["played"] == value
        assert review.plies[ply - 1]["move"] not in review.plies[ply - 1]["best"]
        others = [p["loss"] for p in review.plies[first - 1 :] if p["ply"] != ply]
        assert others == [0] * len(others)
        side = 0 if review.plies[ply - 1]["side"] == "south" else 1
        assert review.sides[side]["lost"] == loss
        assert review.sides[1 - side]["lost"] == 0
        marked += 1
    assert marked > 0


def test_a_review_reads_the_default_tables(reviewed_tables, monkeypatch):
    game, tb = reviewed_tables["oware"]
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    monkeypatch.setenv("GRANARY_TABLES", tb.directory)
    assert gos.review(state).plies == gos.review(state, tb.directory).plies
    assert gos.review(state).plies[0]["answer"] == "exact"


class _WithChance:
    """A mancala state whose history claims a chance move first (OpenSpiel's player -1)."""

    def __init__(self, state):
        self._state = state

    def __getattr__(self, name):
        return getattr(self._state, name)

    def full_history(self):
        chance = types.SimpleNamespace(player=int(pyspiel.PlayerId.CHANCE), action=0)
        return [chance, *self._state.full_history()]


def test_reviews_granary_cannot_give_are_refused_in_words(reviewed_tables, tmp_path):
    game, tb = reviewed_tables["mancala"]
    state = game.new_initial_state()
    state.apply_action(3)
    with pytest.raises(ValueError, match="player -1, not player 0 or 1") as refused:
        gos.review(_WithChance(state), tb, search_seconds=0)
    assert "\n" not in str(refused.value)
    with pytest.raises(ValueError, match="tic_tac_toe"):
        gos.review(pyspiel.load_game("tic_tac_toe").new_initial_state(), tb, search_seconds=0)
    big = pyspiel.load_game("oware", {"num_houses_per_player": 9, "num_seeds_per_house": 1})
    with pytest.raises(ValueError, match="9 is out of range"):
        gos.review(big.new_initial_state(), tb, search_seconds=0)
    with pytest.raises(ValueError, match="tablebase"):
        gos.review(state, 3)
    with pytest.raises(granary.TableError, match="missing"):
        gos.review(state, str(tmp_path / "missing"))


# --- the bot -----------------------------------------------------------------------------


def _mcts(game, seed: int):
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, 2.0, 60, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


def _margin(tablebase, state) -> int:
    """The final store difference for the player to move under perfect play."""
    g = gos.from_state(state)
    south, north = g.stores
    own = south - north if state.current_player() == 0 else north - south
    return own + tablebase.query(g).value


def _positions(game, count: int, seed: int, max_seeds: int):
    """`count` positions of random play: random moves until at most `max_seeds` seeds are on the
    board, then 0 to 5 more."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        extra = rng.randrange(6)
        while not state.is_terminal() and (
            sum(gos.from_state(state).pits) > max_seeds or extra > 0
        ):
            if sum(gos.from_state(state).pits) <= max_seeds:
                extra -= 1
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state)
    return found


@pytest.mark.parametrize("params", SMALL_OWARE[:2])
def test_the_bot_keeps_won_oware_positions_won_against_mcts(params, tmp_path):
    game = pyspiel.load_game("oware", params)
    bot = gos.GranaryBot(game, str(tmp_path))
    assert bot.table_seeds == 2 * params["num_houses_per_player"] * params["num_seeds_per_house"]
    tablebase = granary.Tablebase(str(tmp_path))
    results = []
    for i, state in enumerate(_positions(game, 10, seed=4, max_seeds=99)):
        me = state.current_player()
        margin = _margin(tablebase, state)
        bots = [bot, _mcts(game, i)] if me == 0 else [_mcts(game, i), bot]
        result = pyspiel.evaluate_bots(state, bots, i)[me]
        results.append((margin, result))
        if margin > 0:
            assert result == 1, (state.history(), margin)
        if margin == 0:
            assert result >= 0, (state.history(), margin)
    assert any(m > 0 for m, _ in results), results


def test_the_bot_keeps_won_kalah_positions_won_against_mcts(tmp_path):
    game = pyspiel.load_game("mancala")
    bot = gos.GranaryBot(game, str(tmp_path), table_seeds=12)
    tablebase = granary.Tablebase(str(tmp_path))
    won = 0
    for i, state in enumerate(_positions(game, 8, seed=5, max_seeds=20)):
        me = state.current_player()
        margin = _margin(tablebase, state)
        bots = [bot, _mcts(game, i)] if me == 0 else [_mcts(game, i), bot]
        result = pyspiel.evaluate_bots(state, bots, i)[me]
        assert result >= (margin > 0) - (margin < 0), (state.history(), margin, result)
        won += margin > 0
    assert won > 0


def test_the_bot_searches_kalah_beyond_its_tables(tmp_path):
    game = pyspiel.load_game("mancala")
    bot = gos.GranaryBot(game, str(tmp_path), table_seeds=8)
    state = _positions(game, 1, seed=6, max_seeds=30)[0]
    g = gos.from_state(state)
    assert sum(g.pits) > bot.table_seeds + 10  # far above the tables: searched exactly
    choice = bot.choice(g)
    assert (choice.perfect, choice.source) == (True, "search")
    action = bot.step(state)
    assert action in state.legal_actions()
    best = granary.solve(g, str(tmp_path), table_seeds=8).best
    assert gos.pit_of_action(game, action) in best


def test_the_bot_plays_oware_beyond_its_tables_legally(tmp_path):
    game = pyspiel.load_game("oware", SMALL_OWARE[2])
    bot = gos.GranaryBot(game, str(tmp_path), table_seeds=6, nodes=2_000)
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, [bot, _mcts(game, 7)], 7)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_bot_says_where_its_oware_play_is_not_perfect(tmp_path):
    game = pyspiel.load_game("oware", SMALL_OWARE[2])  # 18 seeds
    bot = gos.GranaryBot(game, str(tmp_path), table_seeds=6, nodes=5_000)
    start = gos.from_state(game.new_initial_state())
    above = bot.choice(start)
    assert (above.perfect, above.source, above.value) == (False, "estimate", None)
    assert above.estimate is not None and 0 < above.estimate.nodes
    assert "not proved" in str(above.estimate) or "every leaf exact" in str(above.estimate)
    assert above.best and set(above.best) <= set(start.legal_moves())
    # Within the tables: perfect, as the tables' query says.
    inside = granary.Game(
        "oware", pits=3, seeds=3, rules="abapa", position="1,2,0/0,1,2 7-5 S"
    )
    within = bot.choice(inside)
    query = granary.Tablebase(str(tmp_path)).query(inside)
    assert (within.perfect, within.source, within.best) == (True, "tables", query.best)
    assert (within.value, within.estimate) == (query.value, None)


def test_bad_bot_settings_are_refused_in_words(tmp_path):
    game = pyspiel.load_game("mancala")
    with pytest.raises(ValueError, match="table_seeds"):
        gos.GranaryBot(game, str(tmp_path), table_seeds=-1)
    with pytest.raises(ValueError, match="time"):
        gos.GranaryBot(game, str(tmp_path), time=0)
    with pytest.raises(ValueError, match="nodes"):
        gos.GranaryBot(game, str(tmp_path), nodes=0)
    with pytest.raises(ValueError, match="no granary counterpart"):
        gos.GranaryBot(pyspiel.load_game("tic_tac_toe"), str(tmp_path))
