"""Bao from Python (`granary.bao`): the proof searches against the `granary` command's
`solve bao --json`, and the engine's moves against the rules (`Game`)."""

import pytest

import granary
from test_granary import cli_json

KUJIFUNZA_LINE = ["A3R", "b7R", "B7R", "a8L", "A8L", "a4L"]  # then B2L wins at once
SOUTH_FRONT_EMPTY = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2 0-0 S"


def same_proof(proof, cli):
    """Everything but the time taken."""
    mine = {k: v for k, v in proof.raw.items() if k != "seconds"}
    theirs = {k: v for k, v in cli.items() if k != "seconds"}
    assert mine == theirs
    assert (proof.value, proof.best, proof.pv, proof.nodes) == (
        cli["value"], cli["best"], cli["pv"], cli["nodes"])


def test_the_kujifunza_start_is_a_first_player_win_as_the_command_proves_it():
    proof = granary.bao.prove_pns(granary.Game("bao", rules="kujifunza"))
    assert proof.value == "win" and proof.best == "A3R" and proof.search == "pns"
    assert proof.budget == granary.bao.PNS_NODES
    same_proof(proof, cli_json("solve", "bao", "--rules", "kujifunza"))
    small = granary.bao.prove_pns(granary.Game("bao", rules="kujifunza"), nodes=20_000)
    same_proof(small, cli_json("solve", "bao", "--rules", "kujifunza", "--pns", "20000"))


@pytest.mark.parametrize("depth", [1, 5, 7])
def test_depth_searches_of_the_start_agree_with_the_command(depth):
    events = []
    proof = granary.bao.prove(
        granary.Game("bao", rules="kujifunza"), depth, progress=lambda k, d: events.append((k, d))
    )
    assert proof.search == "depth" and proof.depth == depth
    same_proof(proof, cli_json("solve", "bao", "--rules", "kujifunza", "--depth", str(depth)))
    assert [k for k, _ in events] == ["depth"] * depth
    assert [d["depth"] for _, d in events] == list(range(1, depth + 1))


def test_a_win_in_one_after_moves_agrees_with_the_command():
    game = granary.Game("bao", rules="kujifunza", moves=KUJIFUNZA_LINE)
    proof = granary.bao.prove(game, 3)
    assert (proof.value, proof.plies, proof.best, proof.pv) == ("win", 1, "B2L", ["B2L"])
    same_proof(proof, cli_json("solve", "bao", "--rules", "kujifunza", "--position",
                               game.position, "--depth", "3"))
    # The default rules (kiswahili) too, from their start.
    kiswahili = granary.bao.prove(granary.Game("bao"), 3)
    same_proof(kiswahili, cli_json("solve", "bao", "--depth", "3"))


def test_a_finished_game_is_a_loss_with_no_engine_move():
    game = granary.Game("bao", rules="kujifunza", position=SOUTH_FRONT_EMPTY)
    assert game.is_over()
    proof = granary.bao.prove(game, 2)
    assert (proof.value, proof.plies, proof.pv) == ("loss", 0, [])
    assert granary.bao.choose(game, 0.01) is None
    assert granary.bao.hint(game) == []


@pytest.mark.parametrize("rules", ["kujifunza", "kiswahili"])
def test_the_engine_plays_legal_moves(rules):
    game = granary.Game("bao", rules=rules)
    for _ in range(4):
        move = granary.bao.choose(game, seconds=0.05)
        assert move.move in game.legal_moves()
        assert move.depth >= 1 and move.nodes > 0
        game = game.play(move.move)
        assert move.position == game.position
    hints = granary.bao.hint(game)
    assert [m for m, _ in hints] == game.legal_moves()
    assert all(isinstance(score, float) for _, score in hints)


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: granary.bao.prove(granary.Game("kalah"), 3), "kalah is not bao"),
        (lambda: granary.bao.choose(granary.Game("oware")), "oware is not bao"),
        (lambda: granary.bao.prove("bao", 3), "a granary.Game of bao"),
        (lambda: granary.bao.prove(granary.Game("bao"), -1), "depth: -1 is out of range"),
        (lambda: granary.bao.prove(granary.Game("bao"), 2.5), "depth must be a whole number"),
        (lambda: granary.bao.prove_pns(granary.Game("bao"), 0), "nodes: 0 is out of range"),
        (lambda: granary.bao.choose(granary.Game("bao"), 0), "seconds: 0"),
        (lambda: granary.bao.choose(granary.Game("bao"), -1.0), "seconds"),
        (lambda: granary.bao.choose(granary.Game("bao"), float("nan")), "seconds"),
        (lambda: granary.bao.choose(granary.Game("bao"), "1"), "seconds must be a number"),
        (lambda: granary.bao.hint(granary.Game("bao", rules="chess")), "chess"),
    ],
)
def test_bad_input_raises_value_error(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_the_modules_docstring_examples_run():
    import doctest

    result = doctest.testmod(granary.bao, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
