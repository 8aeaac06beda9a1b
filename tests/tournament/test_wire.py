"""What travels between a box and its collector: each value owns its path and its JSON,
reads back what it wrote, and refuses anything else with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.records.protocol_value import Protocol
from narrator.sim.recorded import record_game
from narrator.tournament.wire import (
    DELIVERY_PATH,
    ROUND_PATH,
    STATUS_PATH,
    BoxStatus,
    Delivery,
    Receipt,
    RoundOrder,
    WireError,
    to_bytes,
)

ORDER = RoundOrder(
    tournament="Кубок",
    collector="http://192.168.1.5:8090",
    table=3,
    round=2,
    game=2,
    rules="sport",
    seats=10,
    names=tuple(f"Игрок {n}" for n in range(1, 11)),
    lang="ru",
    settings={"third_foul": "tournament", "draw_after_idle_rounds": 3},
)


def test_each_value_owns_its_path_and_reads_back_what_it_wrote(tmp_path: Path) -> None:
    assert (RoundOrder.PATH, Delivery.PATH, BoxStatus.PATH) == (ROUND_PATH, DELIVERY_PATH, STATUS_PATH)
    assert RoundOrder.from_bytes(to_bytes(ORDER)) == ORDER
    assert ORDER.place == ("Кубок", 2, 3, 2)
    game = record_game(
        tmp_path, "sport", 2, ORDER.names, {"tournament": "Кубок", "table": 3, "round": 2, "game": 2}
    )
    protocol = Protocol.from_json(json.loads(game.protocol.read_text(encoding="utf-8")))
    delivery = Delivery("Table 3", 8080, protocol, game.journal.read_text(encoding="utf-8"))
    back = Delivery.from_bytes(to_bytes(delivery))
    assert back == delivery and back.protocol.to_json() == protocol.to_json()
    status = BoxStatus("Table 3", 8080, "Кубок", 2, 3, 2, True, "day", 2, 1796000000.0, 1, 0, "")
    assert BoxStatus.from_bytes(to_bytes(status)) == status
    receipt = Receipt("refused", "g", "round 9 is not in the seating")
    assert Receipt.from_json(receipt.to_json()) == receipt and receipt.final
    assert not Receipt.from_json({"error": "boom"}).final


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[]", "expected a JSON object"),
        (b"{", "JSONDecodeError"),
        (json.dumps({**ORDER.to_json(), "collector": "file:///etc"}).encode(), "http://"),
        (json.dumps({**ORDER.to_json(), "names": ["A"]}).encode(), "1 names for 10 seats"),
        (json.dumps({**ORDER.to_json(), "round": 0}).encode(), "round must be a whole number"),
        (json.dumps({**ORDER.to_json(), "table": True}).encode(), "table must be a whole number"),
    ],
)
def test_a_bad_round_is_one_line(body: bytes, words: str) -> None:
    with pytest.raises(WireError) as caught:
        RoundOrder.from_bytes(body)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_delivery_without_a_journal_or_with_a_bad_protocol_is_refused(tmp_path: Path) -> None:
    game = record_game(tmp_path, "sport", 3)
    protocol = json.loads(game.protocol.read_text(encoding="utf-8"))
    with pytest.raises(WireError, match="no journal"):
        Delivery.from_json({"box": "T", "port": 1, "protocol": protocol})
    protocol["seats"][0]["seat"] = 11
    with pytest.raises(WireError, match="seats: expected seats 1 to 10"):
        Delivery.from_json({"box": "T", "port": 1, "protocol": protocol, "journal": "x"})
    with pytest.raises(WireError, match="since must be a time"):
        BoxStatus.from_json({"box": "T", "port": 1, "since": "noon"})
