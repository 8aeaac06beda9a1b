"""The boxed edition's protocol sheet says what its own game did: the card the commissar
saw (the booklet's commissar learns the role, not yes or no), the spy's sleep and the
bodyguard's guard among the night's choices, the all-or-none re-vote and its coin, the
judge's verdict, and the host's signature (in boxed, «Судья» is a role)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from narrator.engine.effects import Effect
from narrator.engine.game import Game
from narrator.records.protocol import ProtocolBuilder
from narrator.records.protocol_html import render_html
from tests.engine.scenario import run_scenario
from tests.records.test_sheets import visible

BOXED = Path(__file__).parent.parent / "scenarios" / "boxed"


def sheet(name: str, lang: str, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], str]:
    """Play a boxed scenario and write its protocol sheet from every effect it made."""
    effects: list[Effect] = []
    apply = Game.apply

    def recording(game: Game, action: Any) -> list[Effect]:
        out = apply(game, action)
        effects.extend(out)
        return out

    monkeypatch.setattr(Game, "apply", recording)
    game = run_scenario(BOXED / f"{name}.yaml")
    assert game is not None
    builder = ProtocolBuilder(game.engine.rules, game.state.seats, lang=lang)
    builder.feed([*game.opening, *effects])
    protocol = builder.to_json()
    return protocol, visible(render_html(protocol))


def test_the_commissar_saw_a_card(monkeypatch: pytest.MonkeyPatch) -> None:
    _, text = sheet("commissar_learns_role", "ru", monkeypatch)
    # No sergeant in this game: the commissar alone; the ninja shows a civilian's card.
    assert "Комиссар 3 → 8: Мирный горожанин" in text
    assert "Комиссар 3 → 5: Лунатик" in text
    assert "Комиссар 3 → 2: Мафиози" in text
    assert "Комиссар 3 → 10: Доктор" in text
    assert "Сержантка" not in text and ": нет" not in text
    assert "Подпись ведущего" in text and "Подпись судьи" not in text


def test_the_spy_and_the_bodyguard_are_on_the_night_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    _, text = sheet("spy_sleep", "en", monkeypatch)
    assert "Spy (sleep): 10→9" in text
    _, text = sheet("bodyguard_blocks", "ru", monkeypatch)
    assert "Телохранитель (охрана): 11→3" in text


def test_all_or_none_and_the_coin(monkeypatch: pytest.MonkeyPatch) -> None:
    protocol, text = sheet("tie_coin_all", "ru", monkeypatch)
    assert protocol["days"][0]["all_or_none"] == [
        {"candidates": [2, 4], "yes": [1, 3, 6], "no": [2, 4, 5], "coin": "all"}]
    assert "Посадить всех? (2, 4): за 3, против 3; монетка: все" in text
    assert "Д1: посажены все" in text
    _, text = sheet("tie_none_jailed", "en", monkeypatch)
    assert "Jail them all? (" in text and "coin" not in text


def test_the_judges_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    protocol, text = sheet("judge_during_vote", "en", monkeypatch)
    assert protocol["days"][0]["verdict"] == {"judge": 3, "target": 5}
    assert "The judge's verdict: 3 → 5" in text
    assert "D1: jailed by the judge" in text
    assert "Host's signature" in text


def test_no_foul_column_without_fouls(monkeypatch: pytest.MonkeyPatch) -> None:
    """The booklet has no fouls: no foul boxes on the boxed sheet."""
    protocol, text = sheet("town_wins", "ru", monkeypatch)
    assert protocol["game"]["fouls_out"] == 0
    assert "Фолы" not in text and 'class="box"' not in render_html(protocol)
