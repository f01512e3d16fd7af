"""The package's surface: its version, a namespace of the public API only, numpy integers taken
as ints, and bad input of every kind raising ValueError (never a TypeError or OverflowError
from the native layer)."""

import re
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

import granary

ROOT = Path(__file__).resolve().parents[3]


def test_version_is_the_packages_and_the_engines():
    assert granary.__version__ == metadata.version("granary")
    workspace = (ROOT / "Cargo.toml").read_text()
    cargo = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', workspace, re.M | re.S)
    assert cargo and granary.__version__ == cargo.group(1)


def test_dir_shows_the_public_api_only():
    names = dir(granary)
    assert set(granary.__all__) <= set(names)
    assert "__version__" in names
    assert all(n in granary.__all__ or n == "__version__" for n in names), names
    # Every public name exists and none is private.
    for name in granary.__all__:
        assert hasattr(granary, name) and not name.startswith("_")
    assert set(dir(granary.bao)) == set(granary.bao.__all__)
    for name in granary.bao.__all__:
        assert hasattr(granary.bao, name)
    # The star import brings the public API and nothing else.
    scope = {}
    exec("from granary import *", scope)
    assert set(scope) - {"__builtins__"} == set(granary.__all__)


def test_numpy_integers_are_ints():
    game = granary.Game("kalah", pits=np.int64(4), seeds=np.uint8(3))
    assert game.position == "3,3,3,3/3,3,3,3 0-0 S"
    plain = granary.Game("kalah", pits=4, seeds=3).play(2)
    assert game.play(np.int32(2)).position == plain.position
    assert granary.Game("kalah", pits=4, seeds=3, moves=[np.int16(1)]).moves == ("1",)
    south = np.array([1, 0, 2], dtype=np.int64)
    north = np.array([0, 1, 1], dtype=np.uint16)
    game = granary.Game.from_pits("kalah", south, north, (np.int8(2), 0))
    assert game.position == "1,0,2/0,1,1 2-0 S"


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: granary.Game("kalah", seeds=-1), "seeds: -1 is out of range"),
        (lambda: granary.Game("kalah", pits=-3), "pits: -3 is out of range"),
        # The library's words, as the command line and the server say them.
        (lambda: granary.Game("kalah", pits=0), "^pits 0 is out of range: a side has 1 to 8 pits$"),
        (lambda: granary.Game("oware", pits=9), "^pits 9 is out of range: a side has 1 to 8 pits$"),
        (lambda: granary.Game("kalah", pits=2**70), "pits: .* is out of range"),
        (lambda: granary.Game("kalah", seeds=2**40), "seeds: .* is out of range"),
        (lambda: granary.Game("kalah", seeds="4"), "seeds must be a whole number"),
        (lambda: granary.Game("kalah", seeds=4.0), "seeds must be a whole number"),
        (lambda: granary.Game("kalah", pits=True), "pits must be a whole number"),
        (lambda: granary.Game("kalah", rules=1), "rules must be a name"),
        (lambda: granary.Game("kalah", position=42), "position must be written"),
        (lambda: granary.Game("kalah", moves="12"), "moves must be a sequence"),
        (lambda: granary.Game("kalah", moves=[1.5]), "a move is a pit number"),
        (lambda: granary.Game("kalah").play(None), "a move is a pit number"),
        (lambda: granary.Game(None), "game must be a name"),
        (lambda: granary.Game.from_pits("kalah", [1, -1], [0, 0]), "non-negative integers"),
        (lambda: granary.Game.from_pits("kalah", np.array([1, -1]), [0, 0]), "non-negative"),
        (lambda: granary.Game.from_pits("kalah", [1.5, 1], [0, 0]), "non-negative integers"),
        (lambda: granary.Game.from_pits("kalah", 5, [0, 0]), "non-negative integers"),
        (lambda: granary.Game.from_pits("kalah", [1], [0], (-1, 0)), "stores"),
        (lambda: granary.Game.from_pits("kalah", [1], [0], (1, 0, 0)), "two counts"),
        (lambda: granary.Game.from_pits("kalah", [1], [0], to_move=1), "to_move"),
        (lambda: granary.Tablebase("/tmp").build(granary.Game("kalah"), -1), "max_seeds"),
        (lambda: granary.Tablebase("/tmp").build(granary.Game("kalah"), "4"), "max_seeds"),
        (lambda: granary.Tablebase("/tmp").build(granary.Game("kalah"), 4, threads=0), "threads"),
        (lambda: granary.Tablebase("/tmp").build(granary.Game("kalah"), 4, memory=-5), "memory"),
        (lambda: granary.solve(granary.Game("kalah"), "/tmp", table_seeds=-2), "table_seeds"),
        (lambda: granary.solve(granary.Game("kalah"), "/tmp", threads=1.5), "threads"),
        (lambda: granary.solve(granary.Game("kalah"), "/tmp", progress=3), "progress"),
        (lambda: granary.Tablebase("/tmp").review("kalah", [1], progress=3), "progress"),
        (lambda: granary.Tablebase("/tmp").review_record("", progress="x"), "progress"),
        (lambda: granary.Tablebase("/tmp").values("kalah", [[1, 2]], pits=-1), "pits"),
    ],
)
def test_bad_input_is_a_value_error_naming_what_is_wrong(make, match):
    with pytest.raises(ValueError, match=match) as caught:
        make()
    # One line, and nothing of the native layer's internals.
    message = str(caught.value)
    assert "\n" not in message and "extract" not in message and "Options" not in message
