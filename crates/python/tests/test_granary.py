"""The Python package against independent answers: published Kalah values, Romein & Bal's awari
test position, and the `granary` command (its `show --json`, `query --json`, `solve --json`)
move by move. The command is `$GRANARY_BIN`, else the repository's `target/ci/granary` or
`target/release/granary` (the test fails if none is there: build it first)."""

import json
import os
import random
import signal
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


@pytest.fixture(scope="session")
def awari16(tmp_path_factory):
    """Oware awari tables to 16 seeds, built through Python."""
    d = tmp_path_factory.mktemp("awari")
    report = granary.Tablebase(str(d)).build(granary.Game("oware", rules="awari"), 16)
    assert report.max_seeds == 16 and report.built == report.positions > 0
    return str(d)


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


def test_review_agrees_with_query_ply_by_ply(tmp_path):
    """A whole Kalah(4,3) game reviewed: every ply's value and played value are what `query`
    (an independent door) gives for its position and move; the summaries add up."""
    game = granary.Game("kalah", pits=4, seeds=3)
    granary.solve(game, str(tmp_path))
    tb = granary.Tablebase(str(tmp_path))
    rng = random.Random(7)
    played = game
    while not played.is_over():
        played = played.play(rng.choice(played.legal_moves()))
    moves = [int(m) for m in played.moves]
    review = tb.review("kalah", moves, pits=4, seeds=3, search_seconds=None)
    assert review.tables.startswith("kalah-4")
    assert review.setup["moves"] == moves
    assert [p["ply"] for p in review.plies] == list(range(1, len(moves) + 1))
    assert [p["move"] for p in review.plies] == moves
    here = game
    for p, move in zip(review.plies, moves):
        assert p["position"] == here.position and p["side"] == here.to_move
        assert p["answer"] == "exact", p
        q = tb.query(granary.Game("kalah", pits=4, seeds=3, position=p["position"]),
                     search_seconds=None)
        assert p["value"] == q.value
        assert p["played"] == {m.pit: m.value for m in q.moves}[move]
        assert p["best"] == q.best and p["result"] == q.result
        assert p["loss"] == p["value"] - p["played"] >= 0
        worse = {("win", "draw"), ("win", "loss"), ("draw", "loss")}
        assert p["changed"] == ((p["result"], p["result_after"]) in worse)
        # The library's mark: `??` for a move that changes the result, `?` for one that loses.
        assert p["mark"] == ("??" if p["changed"] else "?" if p["loss"] > 0 else None), p
        here = here.play(move)
    assert any(p["loss"] > 0 for p in review.plies)
    for side, summary in zip(("south", "north"), review.sides):
        mine = [p for p in review.plies if p["side"] == side]
        assert summary["played"] == summary["exact"] == len(mine)
        assert summary["kept"] == sum(p["loss"] == 0 for p in mine)
        assert summary["lost"] == sum(p["loss"] for p in mine)
        changes = [p["ply"] for p in mine if p["changed"]]
        assert summary["first_change"] == (changes[0] if changes else None)
    # The command's review says the same.
    cli = cli_json("review", "kalah", "--pits", "4", "--seeds", "3", "--dir", str(tmp_path),
                   "--moves", ",".join(map(str, moves)), "--search-seconds", "1000000")
    assert cli["plies"] == review.plies and cli["sides"] == review.sides


def test_review_is_a_table_of_a_row_a_ply(tmp_path):
    pandas = pytest.importorskip("pandas")
    game = granary.Game("kalah", pits=4, seeds=3)
    granary.solve(game, str(tmp_path))
    review = granary.Tablebase(str(tmp_path)).review("kalah", [1, 4, 2], pits=4, seeds=3)
    frame = pandas.DataFrame(review.plies)
    assert len(frame) == 3 and list(frame["ply"]) == [1, 2, 3]
    assert {"ply", "side", "move", "position", "answer", "value", "played", "best", "loss",
            "result", "result_after", "changed", "mark", "source"} == set(frame.columns)
    assert (frame["loss"] == frame["value"] - frame["played"]).all()
    assert len(pandas.DataFrame(review.sides)) == 2


@pytest.fixture(scope="session")
def kalah43(tmp_path_factory):
    """Kalah(4,3) tables to every seed of the game, built through Python."""
    d = tmp_path_factory.mktemp("kalah43")
    tb = granary.Tablebase(str(d))
    tb.build(granary.Game("kalah", pits=4, seeds=3), 24)
    return tb


def test_review_progress_hands_on_every_ply_in_order(kalah43):
    """`progress` hears each ply once, in order, as the review's own plies say it, with the
    number done and the game's moves; a record's review and a bao game's likewise."""
    moves = [1, 2, 3, 4, 1, 2, 3, 4]
    heard = []
    review = kalah43.review("kalah", moves, pits=4, seeds=3,
                            progress=lambda *call: heard.append(call))
    assert heard == [(i + 1, len(moves), p) for i, p in enumerate(review.plies)]
    assert [p["answer"] for _, _, p in heard] == ["exact"] * len(moves)
    assert review == kalah43.review("kalah", moves, pits=4, seeds=3)
    record = granary.GameRecord.of("kalah", moves, pits=4, seeds=3)
    heard.clear()
    by_record = kalah43.review_record(record, progress=lambda *call: heard.append(call))
    assert heard == [(i + 1, len(moves), p) for i, p in enumerate(by_record.plies)]
    heard.clear()
    bao = kalah43.review("bao", ["A6R", "a6L"], rules="kujifunza",
                         progress=lambda *call: heard.append(call))
    assert heard == [(1, 2, bao.plies[0]), (2, 2, bao.plies[1])]


class Stop(Exception):
    """A progress callback's own exception."""


def test_a_progress_callback_that_raises_stops_the_review(kalah43):
    """The exception a callback raises at the first ply stops the review there and is the one
    the review raises (not a TableError for the cancelled review), the same object; a game of
    one move, and a bao game, whose plies come after their last answer, likewise."""
    raised = []

    def stop(done, total, ply):
        raised.append(Stop(done, total, ply["ply"]))
        raise raised[-1]

    cases = [
        lambda: kalah43.review("kalah", [1, 2, 3, 4], pits=4, seeds=3, progress=stop),
        lambda: kalah43.review("kalah", [1], pits=4, seeds=3, progress=stop),
        lambda: kalah43.review_record(granary.GameRecord.of("kalah", [1, 2, 3, 4], pits=4,
                                                            seeds=3), progress=stop),
        lambda: kalah43.review("bao", ["A6R", "a6L"], rules="kujifunza", progress=stop),
    ]
    for review, total in zip(cases, (4, 1, 4, 2)):
        raised.clear()
        with pytest.raises(Stop) as caught:
            review()
        assert len(raised) == 1 and caught.value is raised[0]
        assert caught.value.args == (1, total, 1)


def test_ctrl_c_in_a_review_raises_keyboard_interrupt(kalah43):
    """A SIGINT during a review stops it at the ply and raises KeyboardInterrupt."""
    heard = []

    def interrupt(done, total, ply):
        heard.append(done)
        signal.raise_signal(signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        kalah43.review("kalah", [1, 2, 3, 4], pits=4, seeds=3, progress=interrupt)
    assert heard == [1]


def test_review_of_an_illegal_move_names_the_ply_and_the_move(tmp_path):
    tb = granary.Tablebase(str(tmp_path))
    # Nothing is answered before the whole game is found legal: no tables are needed.
    with pytest.raises(ValueError, match=r"^moves: move 2 \(pit 5\): pit 5 does not exist") as caught:
        tb.review("kalah", [1, 5], pits=4, seeds=3)
    assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match=r"^moves: move 1 \(pit 0\): "):
        tb.review("kalah", [0], pits=4, seeds=3)
    with pytest.raises(ValueError, match="moves: move 1: '1' is not a bao move"):
        tb.review("bao", [1])
    with pytest.raises(ValueError, match="move: -1 is out of range"):
        tb.review("kalah", [-1])
    with pytest.raises(ValueError, match="moves must be a sequence"):
        tb.review("kalah", "12")
    with pytest.raises(ValueError, match="unknown option"):
        tb.review("kalah", [1], colour="red")


def test_a_review_beyond_the_tables_has_the_engines_estimates_labelled(awari16):
    """Above the tables a ply has the engine's estimates in keys of their own (never `value`
    or `loss`, never a mark), the same on every run within `nodes`, and what the command says;
    with `time=0` it has none."""
    tb = granary.Tablebase(awari16)
    # 18 seeds over tables to 16; South's 6 takes North's two twos, leaving 14.
    start = granary.Game.from_pits("oware", [2] * 6, [1] * 6, rules="awari").position
    review = tb.review("oware", [6, 3], position=start, rules="awari", nodes=20_000)
    first, second = review.plies
    assert first["answer"] == "estimated" and "18 seeds" in first["reason"], first
    for key in ("value", "played", "loss", "best", "result", "changed"):
        assert key not in first, first
    assert first.get("mark") is None, first
    e = first["estimate"]
    assert first["estimated_loss"] == e["value"] - first["estimate_played"] >= 0, first
    assert e["depth"] >= 1 and e["nodes"] > 0 and first["estimated_best"], first
    assert second["answer"] == "exact" and second["loss"] == second["value"] - second["played"]
    south = review.sides[0]
    assert (south["estimated"], south["estimated_lost"]) == (1, first["estimated_loss"])
    assert "S6 {review: estimate: best " in review.record, review.record
    assert "?" not in review.record.split("S6", 1)[1].split("{", 1)[0], review.record

    def timeless(plies):
        return [{**p, "estimate": {**p["estimate"], "seconds": 0}} if "estimate" in p else p
                for p in plies]

    again = tb.review("oware", [6, 3], position=start, rules="awari", nodes=20_000)
    assert timeless(again.plies) == timeless(review.plies)
    cli = cli_json("review", "oware", "--rules", "awari", "--position", start, "--moves", "6,3",
                   "--dir", awari16, "--nodes", "20000")
    assert timeless(cli["plies"]) == timeless(review.plies)
    plain = tb.review("oware", [6, 3], position=start, rules="awari", time=0)
    assert plain.plies[0]["answer"] == "beyond" and "estimate" not in plain.plies[0]
    assert plain.plies[1] == second and plain.sides[0]["estimated"] == 0
    with pytest.raises(ValueError, match="nodes"):
        tb.review("oware", [6], position=start, rules="awari", nodes=0)


def test_a_record_is_read_written_and_reviewed(tmp_path):
    """A record reads what it writes, names the line and column of a fault, and reviews as
    its moves do, the review written back into its comments; a bao game reviews without a
    value anywhere."""
    text = '[Game "kalah"] [Pits "4"] [Seeds "3"] [South "Ada"]\n{mistakes}\n1 2 3 4 1 2 3 4\n'
    record = granary.GameRecord.read(text)
    assert record.tags == {"Game": "kalah", "Pits": "4", "Seeds": "3", "South": "Ada"}
    assert record.comments == ["mistakes"]
    assert [m["move"] for m in record.moves] == [1, 2, 3, 4, 1, 2, 3, 4]
    assert record.game["game"] == "kalah" and record.game["pits"] == 4
    assert granary.GameRecord.read(str(record)) == record
    made = granary.GameRecord.of(
        "kalah", [1, 2, 3, 4, 1, 2, 3, 4], pits=4, seeds=3, tags={"South": "Ada"},
        comments=["mistakes"],
    )
    assert made.moves == record.moves and made.game == record.game
    with pytest.raises(ValueError, match=r"^line 2, column 3: ply 2, '9': pit 9 does not exist"):
        granary.GameRecord.read('[Game "kalah"] [Pits "4"]\n1 9')
    with pytest.raises(ValueError, match="unknown tag 'Colour'"):
        granary.GameRecord.read('[Game "kalah"]\n[Colour "red"]')
    tb = granary.Tablebase(str(tmp_path))
    tb.build(granary.Game("kalah", pits=4, seeds=3), 24)
    by_moves = tb.review("kalah", [1, 2, 3, 4, 1, 2, 3, 4], pits=4, seeds=3)
    by_record = tb.review_record(record)
    assert by_record.plies == by_moves.plies and by_record.sides == by_moves.sides
    assert by_record.setup == by_moves.setup == {**record.game}
    written = granary.GameRecord.read(by_record.record)
    assert written.tags["South"] == "Ada" and written.comments[0] == "mistakes"
    for move, ply in zip(written.moves, by_record.plies):
        assert move["comments"][-1].startswith(
            f"review: value {ply['value']:+}, played {ply['played']:+}, loss {ply['loss']}"
        )
        assert move["mark"] == ply["mark"]
    # The command says the same of the record.
    path = tmp_path / "game.txt"
    path.write_text(text)
    cli = cli_json("review", "--record", str(path), "--dir", str(tmp_path))
    assert cli["plies"] == by_record.plies
    bao = tb.review("bao", ["A6R", "a6L"], rules="kujifunza")
    assert bao.tables is None
    assert [p["answer"] for p in bao.plies] == ["beyond", "beyond"]
    assert all("value" not in p for p in bao.plies)


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
