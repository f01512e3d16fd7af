"""Batches of positions (`Tablebase.values`, `Tablebase.best_moves`) against the per-position
answers (`Tablebase.query`, itself checked against the `granary` command in test_granary.py):
numpy arrays and lists in, numpy arrays out, positions the tables do not cover masked."""

import random

import numpy as np
import pytest

import granary

TABLE_SEEDS = 12


@pytest.fixture(scope="module")
def kalah4(tmp_path_factory):
    """Kalah(4) tables (empty capture) to 12 seeds, built through Python."""
    d = str(tmp_path_factory.mktemp("kalah4"))
    granary.Tablebase(d).build(granary.Game("kalah", pits=4), TABLE_SEEDS)
    return d


@pytest.fixture(scope="module")
def oware5(tmp_path_factory):
    """Oware(5) awari tables to 12 seeds."""
    d = str(tmp_path_factory.mktemp("oware5"))
    granary.Tablebase(d).build(granary.Game("oware", pits=5, rules="awari"), TABLE_SEEDS)
    return d


def random_games(name, count, seed, **options):
    """Positions of random games (uniform legal moves from the start), some above the tables."""
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        game = granary.Game(name, **options)
        while not game.is_over() and len(games) < count:
            game = game.play(rng.choice(game.legal_moves()))
            if rng.random() < 0.4:
                games.append(game)
    return games


def test_values_of_random_positions_equal_the_per_position_answers(kalah4):
    tb = granary.Tablebase(kalah4)
    games = random_games("kalah", 300, seed=1, pits=4, seeds=3)
    pits = np.array([g.pits for g in games], dtype=np.int64)
    to_move = np.array([g.to_move == "north" for g in games], dtype=np.uint8)
    labels = tb.values("kalah", pits, to_move=to_move)
    assert labels.value.dtype == np.int16 and labels.covered.dtype == np.bool_
    assert labels.value.shape == labels.covered.shape == (300,)
    inside = np.array([sum(g.pits) <= TABLE_SEEDS for g in games])
    # Both kinds are in the sample, and the mask is exactly "the tables hold the layer".
    assert inside.sum() >= 50 and (~inside).sum() >= 50
    assert (labels.covered == inside).all()
    assert (labels.value[~inside] == 0).all()
    for game, value, covered in zip(games, labels.value, labels.covered):
        if covered:
            assert value == tb.query(game).value, game.position
    # The notation says the same.
    text = tb.values("kalah", [g.position for g in games])
    assert (text.value == labels.value).all() and (text.covered == labels.covered).all()


def test_best_moves_of_random_positions_equal_the_per_position_answers(oware5):
    tb = granary.Tablebase(oware5)
    games = random_games("oware", 300, seed=2, pits=5, seeds=2, rules="awari")
    rows = [g.pits for g in games]  # lists of lists
    sides = ["S" if g.to_move == "south" else "N" for g in games]
    answer = tb.best_moves("oware", rows, to_move=sides, rules="awari")
    assert answer.moves.shape == answer.legal.shape == answer.best.shape == (300, 5)
    values = tb.values("oware", rows, to_move=sides, rules="awari")
    assert (values.value == answer.value).all() and (values.covered == answer.covered).all()
    covered = 0
    for i, game in enumerate(games):
        if not answer.covered[i]:
            assert sum(game.pits) > TABLE_SEEDS
            assert not answer.legal[i].any() and not answer.best[i].any()
            continue
        covered += 1
        q = tb.query(game)
        assert answer.value[i] == q.value
        legal = [k + 1 for k in range(5) if answer.legal[i, k]]
        # (Not always game.legal_moves(): tables play Oware to the last seed, a majority
        # does not end it.)
        assert legal == [m.pit for m in q.moves]
        assert [int(answer.moves[i, k - 1]) for k in legal] == [m.value for m in q.moves]
        assert [k + 1 for k in range(5) if answer.best[i, k]] == q.best
    assert covered >= 100


def test_the_default_side_to_move_is_south_and_north_turns_the_board(kalah4):
    tb = granary.Tablebase(kalah4)
    south, north = [1, 0, 2, 0], [0, 3, 0, 1]
    as_south = granary.Game.from_pits("kalah", south, north)
    as_north = granary.Game.from_pits("kalah", south, north, to_move="N")
    rows = np.array([south + north, south + north])
    both = tb.values("kalah", rows, to_move=[0, 1])
    assert both.value.tolist() == [tb.query(as_south).value, tb.query(as_north).value]
    assert tb.values("kalah", rows).value.tolist() == [tb.query(as_south).value] * 2
    assert tb.values("kalah", rows, to_move="n").value.tolist() == [tb.query(as_north).value] * 2
    # The same position seen from North is South's with the sides swapped.
    swapped = tb.values("kalah", [north + south], to_move="S")
    assert swapped.value[0] == both.value[1]


def test_numpy_integer_types_and_big_counts(kalah4):
    tb = granary.Tablebase(kalah4)
    row = [1, 0, 2, 0, 0, 3, 0, 1]
    expected = tb.values("kalah", [row]).value[0]
    for dtype in (np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64):
        assert tb.values("kalah", np.array([row], dtype=dtype)).value[0] == expected
    # Counts the packed board cannot hold are refused, naming the row: a pit past a byte, and
    # pits that each fit a byte but not together (300 seeds: a byte sum would wrap to 44).
    for rows, match in [
        (np.array([row, [300, 0, 0, 0, 0, 0, 0, 1]]), r"positions\[1\]: position: South's pit 1 holds 300"),
        (np.array([[100, 100, 100, 0, 0, 0, 0, 0]]), r"positions\[0\]: position holds 300 seeds"),
        (np.array([[0, 0, 0, 10**6, 0, 0, 0, 0]]), "South's pit 4 holds 1000000 seeds"),
        (
            np.array([[0, 0, 0, 0, 2**64 - 1, 0, 0, 0]], dtype=np.uint64),
            "North's pit 1 holds 18446744073709551615",
        ),
        (np.array([[100, 100, 55, 1, 0, 0, 0, 0]], dtype=np.uint8), "position holds 256 seeds"),
    ]:
        for method in (tb.values, tb.best_moves):
            with pytest.raises(ValueError, match=match):
                method("kalah", rows)
    # 255 seeds, the most the board holds: answered (beyond these tables, so not covered).
    most = tb.values("kalah", np.array([[100, 100, 55, 0, 0, 0, 0, 0], row]))
    assert most.covered.tolist() == [False, True]
    # Strided and non-contiguous input.
    wide = np.array([[row, row]]).reshape(2, 8)[::-1]
    assert tb.values("kalah", wide).value.tolist() == [expected, expected]
    fortran = np.asfortranarray(np.array([row, row]))
    assert tb.values("kalah", fortran).value.tolist() == [expected, expected]


def test_an_empty_batch_an_empty_directory_and_a_missing_one(tmp_path, kalah4):
    tb = granary.Tablebase(kalah4)
    empty = tb.values("kalah", np.zeros((0, 8), dtype=np.int64))
    assert empty.value.shape == (0,) and empty.covered.shape == (0,)
    assert tb.values("kalah", []).value.shape == (0,)
    assert tb.best_moves("kalah", np.zeros((0, 8), dtype=int)).best.shape == (0, 4)
    # An empty directory, given on purpose: nothing is covered, nothing fails.
    none = granary.Tablebase(str(tmp_path)).values("kalah", [[1, 0, 0, 0, 0, 0, 0, 1]])
    assert none.covered.tolist() == [False]
    # A directory that is not there is an error naming it, not a directory with no tables.
    missing = str(tmp_path / "nothing")
    with pytest.raises(granary.TableError, match=f"{missing}: no such table directory"):
        granary.Tablebase(missing)
    with pytest.raises(granary.TableError, match="not a directory"):
        granary.Tablebase(__file__)
    # Made on purpose, it is an empty table directory.
    made = granary.Tablebase(missing, create=True)
    assert made.values("kalah", [[1, 0, 0, 0, 0, 0, 0, 1]]).covered.tolist() == [False]


def test_a_finished_game_is_covered_with_no_best_move(kalah4):
    tb = granary.Tablebase(kalah4)
    answer = tb.best_moves("kalah", [[0, 0, 0, 0, 1, 0, 2, 0]])
    over = granary.Game.from_pits("kalah", [0, 0, 0, 0], [1, 0, 2, 0])
    assert over.is_over()
    assert answer.covered.tolist() == [True]
    assert answer.value[0] == tb.query(over).value == -3
    assert not answer.legal.any() and not answer.best.any()


def test_damaged_tables_fail_the_batch(tmp_path, kalah4):
    from pathlib import Path

    damaged = tmp_path / "damaged"
    for f in Path(kalah4).rglob("*.tbl"):
        target = damaged / f.relative_to(kalah4)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = f.read_bytes()
        target.write_bytes(data[: len(data) // 2] if f.name.endswith("006.tbl") else data)
    tb = granary.Tablebase(str(damaged))
    assert tb.values("kalah", [[1, 0, 0, 0, 0, 0, 0, 1]]).covered.all()
    with pytest.raises(granary.TableError, match="layer-006"):
        tb.values("kalah", [[1, 0, 0, 0, 0, 0, 0, 1], [2, 1, 0, 0, 0, 3, 0, 0]])


@pytest.mark.parametrize(
    "positions,kwargs,match",
    [
        ([[1, -1, 0, 0, 0, 0, 0, 0]], {}, r"positions\[0\]: pit counts must be non-negative"),
        (np.array([[0] * 8, [1, 0, 0, 0, 0, 0, -2, 0]]), {}, r"positions\[1\]"),
        ([[1.0, 0, 0, 0, 0, 0, 0, 0]], {}, "non-negative integers, not float64"),
        ([[True, False]], {}, "non-negative integers, not bool"),
        ([[1, 0], [1, 0, 0]], {}, "every row as long"),
        ([1, 0, 0, 0, 0, 0, 0, 0], {}, r"not shape \(8,\)"),
        (np.zeros((2, 2, 8), dtype=int), {}, "not shape"),
        ([[1, 0, 0]], {}, "rows of 3 pit counts"),
        ([[0] * 18], {}, "^positions: rows of 18 pit counts: pits 9 is out of range: a side has 1 to 8 pits$"),
        ([[]], {}, "rows of 0 pit counts: pits 0 is out of range"),
        ([[0] * 8], {"pits": 6}, "pits=6 makes rows of 12"),
        ([[0] * 8], {"to_move": "E"}, "side to move 'E' must be S or N"),
        ([[0] * 8], {"to_move": [0, 1]}, "one side a position"),
        ([[0] * 8], {"to_move": [2]}, r"to_move\[0\]: 0 \(South\) or 1 \(North\)"),
        ([[0] * 8], {"to_move": ["X"]}, r"to_move\[0\]"),
        ([[0] * 8], {"to_move": [0.5]}, "to_move"),
        (["1,0/0,1 0-0 S"], {"to_move": "S"}, "leave to_move out"),
        (["1,0/0,1", "1,0,0/0,0,1"], {}, r"positions\[1\]: position has 3 pits a side"),
        (["garbage"], {}, r"positions\[0\]"),
        ("1,0/0,1", {}, "not one text"),
        ([[0] * 8], {"rules": "fast"}, "fast"),
        ([[0] * 8], {"colour": "red"}, "unknown option"),
        ([[0] * 8], {"rules": 3}, "rules must be a name"),
    ],
)
def test_bad_batches_raise_value_error(kalah4, positions, kwargs, match):
    tb = granary.Tablebase(kalah4)
    for method in (tb.values, tb.best_moves):
        with pytest.raises(ValueError, match=match):
            method("kalah", positions, **kwargs)


def test_bao_has_no_tables(kalah4):
    with pytest.raises(ValueError, match="bao has no endgame tables"):
        granary.Tablebase(kalah4).values("bao", [[0] * 8])
