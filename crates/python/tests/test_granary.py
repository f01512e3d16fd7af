"""The Python package against independent answers: published Kalah values, Romein & Bal's awari
test position, and the `granary` command (its `show --json`, `query --json`, `solve --json`)
move by move. The command is `$GRANARY_BIN`, else the repository's `target/ci/granary` or
`target/release/granary` (the test fails if none is there: build it first)."""

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

import granary

ROOT = Path(__file__).resolve().parents[3]


def _cli() -> str:
    for candidate in (
        os.environ.get("GRANARY_BIN"),
        ROOT / "target" / "ci" / "granary",
        ROOT / "target" / "release" / "granary",
    ):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    pytest.fail("no granary binary: set GRANARY_BIN or run `cargo build --profile ci -p granary-cli`")


def cli_json(*args: str) -> dict:
    out = subprocess.run([_cli(), *args, "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


# --- published results -------------------------------------------------------------------


@pytest.mark.parametrize(
    "pits,seeds,rules,value",
    [
        (4, 3, "empty", 8),  # docs/results.md, both capture rules agree here
        (3, 3, "empty", 2),
        (4, 2, "empty", 6),
        (6, 4, "empty", 10),  # Irving, Donkers & Uiterwijk 2000; docs/references.md
    ],
)
def test_published_kalah_values(tmp_path, pits, seeds, rules, value):
    game = granary.Game("kalah", pits=pits, seeds=seeds, rules=rules)
    events = []
    solution = granary.solve(game, str(tmp_path), progress=lambda k, d: events.append(k))
    assert solution.value == value
    assert solution.result == "win"
    assert solution.pv and solution.pv[0] in game.legal_moves()
    assert "planned" in events and "settled" in events
    # The command agrees on everything it prints.
    cli = cli_json("solve", "kalah", "--pits", str(pits), "--seeds", str(seeds), "--rules", rules,
                   "--dir", str(tmp_path))
    assert cli["value"] == solution.value
    assert cli["best"] == solution.best
    assert [(m.pit, m.value, m.upper) for m in solution.moves] == [
        (m["move"], m.get("value"), m.get("upper", m.get("value"))) for m in cli["moves"]]
    # A bound is never given as a value: each move has one or the other.
    assert all(("value" in m) != ("upper" in m) for m in cli["moves"])
    assert all(m.upper <= value for m in solution.moves)
    assert all(m.exact == (m.value is not None) for m in solution.moves)
    assert any(m.value == value for m in solution.moves if m.pit in solution.best)
    # Against every move's exact value (the small games: Kalah(6,4)'s takes long): exact values
    # equal, bounds hold.
    if pits < 6:
        exact = granary.Tablebase(str(tmp_path)).query(game, search_seconds=None)
        truth = {m.pit: m.value for m in exact.moves}
        for m in solution.moves:
            assert m.value == truth[m.pit] if m.exact else truth[m.pit] <= m.upper, (m, truth)


def test_awari_position_of_romein_and_bal(awari16):
    # keesverstoep/Awari README: value 0; moves -1 -1 -2 -2 -2 0 (Romein & Bal 2002;
    # docs/references.md).
    game = granary.Game.from_pits("oware", [1, 1, 1, 1, 1, 2], [4, 2, 3, 0, 0, 0], rules="awari")
    q = granary.Tablebase(awari16).query(game)
    assert q.value == 0
    assert [m.value for m in q.moves] == [-1, -1, -2, -2, -2, 0]
    assert [m.pit for m in q.moves] == [1, 2, 3, 4, 5, 6]
    assert q.best == [6] and q.result == "draw" and q.final_stores == (8, 8)
    cli = cli_json("query", "oware", "--rules", "awari", "1,1,1,1,1,2/4,2,3,0,0,0",
                   "--dir", awari16)
    assert cli == q.raw


def test_query_values_agree_with_the_command_on_random_positions(awari16):
    rng = random.Random(7)
    tb = granary.Tablebase(awari16)
    positions = []
    for _ in range(20):
        game = granary.Game("oware", rules="awari", seeds=2)  # 24 seeds: play down to <= 16
        while sum(game.pits) > 16 and not game.is_over():
            game = game.play(rng.choice(game.legal_moves()))
        if game.is_over():
            continue
        positions.append(game.position)
        q = tb.query(game)
        cli = cli_json("query", "oware", "--rules", "awari", game.position, "--dir", awari16)
        assert (q.value, [m.value for m in q.moves]) == (
            cli["value"], [m["value"] for m in cli["moves"]])
    assert len(positions) >= 10
    labels = tb.values("oware", positions, rules="awari")
    assert labels.covered.all()
    assert labels.value.tolist() == [tb.query(
        granary.Game("oware", rules="awari", position=p)).value for p in positions]


# --- the rules, move by move against the command --------------------------------------------


@pytest.mark.parametrize(
    "name,options",
    [
        ("kalah", {}),
        ("kalah", {"rules": "standard", "pits": 4, "seeds": 3}),
        ("oware", {"rules": "awari"}),
        ("oware", {"rules": "abapa", "pits": 5, "seeds": 3}),
        ("bao", {}),
        ("bao", {"rules": "kujifunza"}),
    ],
)
def test_random_games_agree_with_show(name, options):
    rng = random.Random(hash(name) ^ len(options))
    flags = [x for k, v in options.items() for x in (f"--{k}", str(v))]
    for _ in range(3):
        game = granary.Game(name, **options)
        moves = []
        for _ in range(60):
            if game.is_over():
                break
            move = rng.choice(game.legal_moves())
            game = game.play(move)
            moves.append(str(move))
        cli = cli_json("show", name, *flags, "--moves", ",".join(moves))
        mine = game.to_dict()
        for key in ("position", "to_move", "legal_moves", "over", "end"):
            assert mine[key] == cli[key], (key, moves)
        if name != "bao":
            assert game.pits == cli["pits"] and list(game.stores) == cli["stores"]


def test_a_finished_game_has_a_score_and_no_moves():
    # Kalah ends when either side's pits are empty; the other side's seeds go to its store.
    over = granary.Game.from_pits("kalah", [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0], (20, 27))
    assert over.is_over() and over.legal_moves() == [] and over.score() == (21, 27)
    game = granary.Game.from_pits("kalah", [0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0], (20, 26))
    assert game.legal_moves() == [6] and not game.is_over()
    end = game.play(6)  # the last seed lands in the store: South empty, North's seed is North's
    assert end.is_over() and end.legal_moves() == []
    assert end.score() == (21, 27)


# --- bad input raises, the interpreter lives --------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: granary.Game("checkers"),
        lambda: granary.Game("kalah", pits=0),
        lambda: granary.Game("kalah", pits=99),
        lambda: granary.Game("kalah", rules="sideways"),
        lambda: granary.Game("oware", sweep="owner"),
        lambda: granary.Game("kalah", position="1,2,3/garbage"),
        lambda: granary.Game("kalah", position="\x00\xff"),
        lambda: granary.Game("kalah", moves=[7]),
        lambda: granary.Game("kalah", moves=["x"]),
        lambda: granary.Game("kalah").play(0),
        lambda: granary.Game("bao", moves=["nonsense"]),
        lambda: granary.Game.from_pits("kalah", [1, -1], [0, 0]),
        lambda: granary.Game.from_pits("kalah", [1, 2], [0, 0, 0]),
        lambda: granary.Game(42),
        lambda: granary.Tablebase("/tmp").values("kalah", ["1/1 0-0 S"], colour="red"),
        lambda: granary.solve(granary.Game("bao"), "/tmp"),
    ],
)
def test_bad_input_raises_value_error(make):
    with pytest.raises(ValueError):
        make()


def test_missing_or_damaged_tables_raise_table_error(tmp_path, awari16):
    game = granary.Game.from_pits("oware", [1, 1, 1, 1, 1, 2], [4, 2, 3, 0, 0, 0], rules="awari")
    with pytest.raises(granary.TableError, match="granary build"):
        granary.Tablebase(str(tmp_path)).query(game, time=0)
    with pytest.raises(granary.TableError, match="no such table directory"):
        granary.Tablebase("/nonexistent")
    # A truncated layer file.
    damaged = tmp_path / "damaged"
    src = Path(awari16)
    for f in src.rglob("*.tbl"):
        target = damaged / f.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = f.read_bytes()
        target.write_bytes(data[: len(data) // 2] if f.name.endswith("016.tbl") else data)
    with pytest.raises(granary.TableError, match="layer-016"):
        granary.Tablebase(str(damaged)).query(game)


def test_beyond_the_tables_the_advice_fits_this_machine(tmp_path):
    tb = granary.Tablebase(str(tmp_path))
    # The Kalah(6,4) start, no search allowed and no estimate asked for: the search that
    # answers it, with its time.
    with pytest.raises(granary.TableError) as caught:
        tb.query(granary.Game("kalah"), search_seconds=0, time=0)
    message = str(caught.value)
    assert "granary solve kalah" in message and " in all" in message, message
    assert "granary build" not in message, message
    # The Oware(6,4) start: no build that no disk holds.
    with pytest.raises(granary.TableError) as caught:
        tb.query(granary.Game("oware", rules="awari"), time=None)
    message = str(caught.value)
    assert "oware is answered from tables alone" in message, message
    assert "--max-seeds 48" not in message and "more than this machine holds" in message, message
    with pytest.raises(ValueError, match="search_seconds"):
        tb.query(granary.Game("kalah"), search_seconds=-1)


def test_beyond_the_exact_reach_a_query_is_the_engines_estimate_labelled(tmp_path, awari16):
    tb = granary.Tablebase(awari16)
    # Oware(6,4) awari from its start: 48 seeds over tables to 16.
    game = granary.Game("oware", rules="awari")
    answer = tb.query(game, nodes=20_000)
    assert isinstance(answer, granary.Estimate), answer
    assert not hasattr(answer, "value") and "value" not in answer.raw
    assert "oware is answered from tables alone" in answer.beyond, answer.beyond
    assert "go up to 16 seeds" in answer.beyond, answer.beyond
    e = answer.estimate
    assert e.nodes > 0 and e.depth >= 1 and abs(e.value) <= 48, e
    assert str(e).startswith(f"estimate {e.value:+d} (depth {e.depth}, "), str(e)
    assert answer.best in game.legal_moves() and answer.pv[0] == answer.best
    assert sorted(m.pit for m in answer.moves) == game.legal_moves()
    assert {m.bound for m in answer.moves} <= {"estimate", "at_most"}
    assert (answer.position, answer.to_move, answer.seeds_on_board, answer.tables) == (
        game.position, "south", 48, "oware-6-awari")
    # A node budget: the same answer on every run.
    again = tb.query(game, nodes=20_000)
    assert (again.best, again.estimate.value, again.estimate.depth, again.estimate.nodes) == (
        answer.best, e.value, e.depth, e.nodes)
    # The same fields as the command's estimate (`granary query --time`), and why it is beyond.
    cli = cli_json("query", "oware", "--rules", "awari", game.position, "--dir", awari16,
                   "--time", "0.05")
    assert set(answer.raw) == set(cli) | {"beyond"}, (answer.raw, cli)
    # A Kalah position whose search is not allowed: estimated too, within a time.
    kalah = tb.query(granary.Game("kalah"), search_seconds=0, time=0.05)
    assert isinstance(kalah, granary.Estimate) and "would take about" in kalah.beyond
    # Within the tables the answer is exact, unchanged.
    inside = granary.Game.from_pits("oware", [1, 1, 1, 1, 1, 2], [4, 2, 3, 0, 0, 0],
                                    rules="awari")
    exact = tb.query(inside, nodes=20_000)
    assert isinstance(exact, granary.Query) and exact == tb.query(inside, time=0)
    for bad, match in [({"time": -1}, "time"), ({"time": 3601}, "time"), ({"nodes": 0}, "nodes"),
                       ({"nodes": 1.5}, "nodes")]:
        with pytest.raises(ValueError, match=match):
            tb.query(game, **bad)


def test_choose_plays_perfectly_within_reach_and_the_engines_move_beyond(tmp_path, awari16):
    tb = granary.Tablebase(awari16)
    game = granary.Game("oware", rules="awari")
    above = tb.choose(game, nodes=20_000)
    assert (above.perfect, above.source, above.value) == (False, "estimate", None)
    assert above.estimate is not None and above.estimate.nodes > 0
    assert len(above.best) == 1 and above.best[0] in game.legal_moves()
    assert above.after == [game.play(above.best[0]).position]
    again = tb.choose(game, nodes=20_000)
    assert (again.best, again.estimate.value, again.estimate.depth) == (
        above.best, above.estimate.value, above.estimate.depth)
    inside = granary.Game.from_pits("oware", [1, 1, 1, 1, 1, 2], [4, 2, 3, 0, 0, 0],
                                    rules="awari")
    within = tb.choose(inside, nodes=20_000)
    query = tb.query(inside)
    assert (within.perfect, within.source, within.best, within.value, within.estimate) == (
        True, "tables", query.best, query.value, None)
    for bad, match in [({"time": 0}, "time"), ({"time": None}, "time"), ({"nodes": 0}, "nodes")]:
        with pytest.raises(ValueError, match=match):
            tb.choose(game, **bad)


def test_reprs_and_catalogue():
    game = granary.Game("kalah", pits=4, seeds=3)
    assert repr(game) == "Game('kalah', pits=4, seeds=3, position='3,3,3,3/3,3,3,3 0-0 S')"
    assert "Tablebase('/tmp')" == repr(granary.Tablebase("/tmp"))
    names = [g["game"] for g in granary.catalogue()]
    assert names == ["kalah", "oware", "bao"]


def test_docstring_examples_run():
    """The examples of the package's docstring and of every module a public name comes from."""
    import doctest
    import sys

    homes = {getattr(getattr(granary, name), "__module__", "") for name in granary.__all__}
    modules = ["granary"] + sorted(m for m in homes if m.startswith("granary."))
    attempted = {}
    for name in modules:
        result = doctest.testmod(sys.modules[name], optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, name
        attempted[name] = result.attempted
    # The package's own example, and the tables' (values, best_moves).
    assert attempted["granary"] > 0 and attempted["granary.tablebase"] > 0, attempted
