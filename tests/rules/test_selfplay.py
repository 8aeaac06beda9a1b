"""Self-play of every bundled rule set at every table size it allows never raises and
always ends (the quick sample of `narrator bench --only selfplay`, which plays 10,000
games per rule set)."""

from __future__ import annotations

import pytest

from narrator.cli import main
from narrator.rules.loader import bundled_names, load_bundled
from workshop.bench.selfplay import play_games, play_many, table_sizes, variants


@pytest.mark.parametrize("name", bundled_names())
def test_self_play_always_ends(name: str) -> None:
    sizes = table_sizes(load_bundled(name))
    figures = play_many(name, 3 * len(sizes))  # every size three times
    assert figures[f"selfplay_{name}_failed"] == 0, figures.get(f"selfplay_{name}_first_failure")


@pytest.mark.parametrize("name", ["sport", "classic", "club"])
def test_self_play_of_every_variant_ends(name: str) -> None:
    """Each non-default value of a choice or true/false setting (the documents' variants)."""
    rules = load_bundled(name)
    assert variants(rules)
    for change in variants(rules):
        changed = rules.with_settings(change)
        failures, _ = play_games(changed, len(table_sizes(changed)))
        assert not failures, (change, failures[0])


def test_classic_is_tried_up_to_twenty_players() -> None:
    assert table_sizes(load_bundled("classic")) == list(range(8, 21))
    assert table_sizes(load_bundled("sport")) == [10]


def test_the_bench_reports(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--only", "selfplay"]) == 0
    out = capsys.readouterr().out
    assert "selfplay_classic_failed          0" in out


@pytest.mark.parametrize(("name", "seats", "lang"), [
    ("classic", 20, "ru"), ("club", 9, "en"),
])
def test_demos_finish_at_the_edges(name: str, seats: int, lang: str) -> None:
    """The full matrix (every size, both languages) is `narrator bench --only demos`."""
    from workshop.bench.demos import play_one

    assert play_one(name, seats, lang) == ""
