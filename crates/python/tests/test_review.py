"""Games reviewed from Python: each ply as `query` (an independent door) answers its position,
a table of a row a ply, the plies handed to a callback as they come (an exception it raises, or
Ctrl-C, stopping the review), the engine's estimates above the tables labelled, and game
records read, written and reviewed, each against what the `granary` command says."""

import random
import signal

import pytest

import granary
from test_granary import cli_json


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

    # Python's own handler, whatever the process inherited: a shell's background job starts
    # with SIGINT ignored, and Python then leaves it so.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        review = kalah43.review("kalah", [1, 2, 3, 4], pits=4, seeds=3, progress=interrupt)
    except KeyboardInterrupt:
        pass
    else:
        # Which plies were told, and how the review ended, say where the signal was lost.
        pytest.fail(f"no KeyboardInterrupt; plies told: {heard}; plies answered: "
                    f"{len(review.plies)}")
    finally:
        signal.signal(signal.SIGINT, inherited)
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
