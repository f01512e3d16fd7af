"""Fixtures the package's tests share."""

import pytest

import granary


@pytest.fixture(scope="session")
def awari16(tmp_path_factory):
    """Oware awari tables to 16 seeds, built through Python."""
    d = tmp_path_factory.mktemp("awari")
    report = granary.Tablebase(str(d)).build(granary.Game("oware", rules="awari"), 16)
    assert report.max_seeds == 16 and report.built == report.positions > 0
    return str(d)
