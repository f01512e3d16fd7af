"""granary.openspiel against OpenSpiel itself: random OpenSpiel games map to granary and back
move for move (legal moves, boards, stores, ends), and the bot keeps every won position won
against OpenSpiel's MCTS bot in OpenSpiel's own evaluation loop. Skipped when OpenSpiel's
Python package (`pip install open_spiel`) is not installed, failed when `CI` is set;
scripts/test-python.sh installs it."""

import importlib
import os
import random
import sys

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
    bot = gos.GranaryBot(game, str(tmp_path), table_seeds=6, depth=2)
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, [bot, _mcts(game, 7)], 7)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_bot_says_where_its_oware_play_is_not_perfect(tmp_path):
    game = pyspiel.load_game("oware", SMALL_OWARE[2])  # 18 seeds
    bot = gos.GranaryBot(game, str(tmp_path), table_seeds=6, depth=3)
    start = gos.from_state(game.new_initial_state())
    above = bot.choice(start)
    assert (above.perfect, above.source) == (False, "estimate")
    assert above.best and set(above.best) <= set(start.legal_moves())
    # Within the tables: perfect, as the tables' query says.
    inside = granary.Game(
        "oware", pits=3, seeds=3, rules="abapa", position="1,2,0/0,1,2 7-5 S"
    )
    within = bot.choice(inside)
    query = granary.Tablebase(str(tmp_path)).query(inside)
    assert (within.perfect, within.source, within.best) == (True, "tables", query.best)
    assert within.value == query.value


def test_bad_bot_settings_are_refused_in_words(tmp_path):
    game = pyspiel.load_game("mancala")
    with pytest.raises(ValueError, match="table_seeds"):
        gos.GranaryBot(game, str(tmp_path), table_seeds=-1)
    with pytest.raises(ValueError, match="depth"):
        gos.GranaryBot(game, str(tmp_path), depth=0)
    with pytest.raises(ValueError, match="no granary counterpart"):
        gos.GranaryBot(pyspiel.load_game("tic_tac_toe"), str(tmp_path))
