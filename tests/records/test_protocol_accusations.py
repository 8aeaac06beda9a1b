"""Princeton rules (classic): the protocol keeps every accusation, its second and the
vote that followed (002: "If an accusation is lodged ... the moderator shall ask for a
second ... Then, the moderator shall take a vote"), so a sheet can show them."""

from __future__ import annotations

from narrator.engine.effects import Effect
from narrator.engine.state import State
from narrator.records.protocol import ProtocolBuilder
from narrator.rules.loader import load_bundled
from narrator.sim.selfplay import play


def test_accusations_seconds_and_their_votes_are_in_the_protocol() -> None:
    rules = load_bundled("classic")
    seen = 0
    for seed in range(6):
        builder = ProtocolBuilder(rules, 10)

        def feed(_st: State, effects: list[Effect], builder: ProtocolBuilder = builder) -> None:
            builder.feed(effects)

        play(rules, seed, seats=10, on_effects=feed)
        for day in builder.to_json()["days"]:
            for acc in day["accusations"]:
                seen += 1
                assert 1 <= acc["target"] <= 10
                assert acc["by"] != acc["target"]
                if acc["seconded_by"] is None:
                    assert acc["voters"] is None and acc["convicted"] is None  # no vote
                else:
                    assert acc["seconded_by"] not in (acc["by"], acc["target"])
                    assert isinstance(acc["voters"], list)
                    assert {"round": 1, "candidate": acc["target"], "voters": acc["voters"]} in day["votes"]
                    if acc["convicted"] is not None:  # None: the accused left before the count
                        out = [e for e in builder.to_json()["eliminations"]
                               if e["seat"] == acc["target"] and e["how"] == "vote"
                               and e["number"] == day["number"]]
                        assert bool(out) == acc["convicted"]
    assert seen >= 5
