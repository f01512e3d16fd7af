"""A solve journal from Python: a solve keeps its proof in a journal, a second call answers from
the journal alone (no tables), and another game's journal is refused with ValueError."""

import pytest

import granary


def test_a_finished_journal_answers_without_tables(tmp_path):
    game = granary.Game("kalah", pits=4, seeds=3)
    journal = tmp_path / "k43.journal"
    first = granary.solve(game, str(tmp_path / "tables"), journal=str(journal))
    assert first.value == 8  # Kalah(4,3): South wins by 8 (docs/results.md)
    assert journal.stat().st_size > 128
    again = granary.solve(game, str(tmp_path / "none"), journal=str(journal))
    assert (again.value, again.moves, again.pv) == (first.value, first.moves, first.pv)
    assert again.tables == "none"
    assert again.raw["journal"]["answered"] is True
    assert not (tmp_path / "none").exists()


def test_another_games_journal_is_refused(tmp_path):
    journal = tmp_path / "j"
    granary.solve(granary.Game("kalah", pits=3, seeds=2), str(tmp_path), journal=str(journal))
    with pytest.raises(ValueError, match="a journal of Kalah"):
        granary.solve(granary.Game("kalah", pits=3, seeds=3), str(tmp_path), journal=str(journal))
