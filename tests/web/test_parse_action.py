"""The page's request bodies: the engine's own field check, plus bounds no page needs to
pass (a request is not trusted as a journal line is)."""

from __future__ import annotations

from typing import Any

import pytest

from narrator.engine.actions import BestMove, Foul, Nominate, Vote
from narrator.web.actions import BadBody, parse_action


@pytest.mark.parametrize(("body", "action"), [
    ({"kind": "foul", "seat": 3}, Foul(3)),
    ({"kind": "nominate", "target": 4, "by": None}, Nominate(4, None)),
    ({"kind": "vote", "voter": 2}, Vote(2)),
    ({"kind": "best_move", "seats": [1, 5, 7]}, BestMove((1, 5, 7))),
])
def test_a_good_body_is_the_action(body: dict[str, Any], action: object) -> None:
    assert parse_action(body) == action


@pytest.mark.parametrize("body", [
    {"kind": "foul", "seat": True},  # a bool is no seat, though Python counts it an int
    {"kind": "foul", "seat": "3"},
    {"kind": "foul", "seat": 10**9},  # past what a page could mean
    {"kind": "nominate", "target": 4, "by": 2.5},
    {"kind": "vote", "voter": None},
    {"kind": "best_move", "seats": list(range(1, 30))},  # longer than any table
    {"kind": "best_move", "seats": [1, "2"]},
    {"kind": "best_move", "seats": [1, 10**9]},
    {"kind": "best_move", "seats": 5},
    {"kind": "foul", "seat": 3, "extra": 1},
    {"kind": "deal", "roles": ["mafia"]},  # the page does not deal
])
def test_a_bad_body_is_refused_in_one_line(body: dict[str, Any]) -> None:
    with pytest.raises(BadBody) as refused:
        parse_action(body)
    assert str(refused.value) and "\n" not in str(refused.value)
