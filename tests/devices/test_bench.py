"""The seats bench runs (quick sample: a smoke test, not a speed check).

A bench measures real time, so this one test waits about two seconds of real time."""

from __future__ import annotations

from narrator.engine.actions import Tap
from narrator.engine.effects import SeatLights
from workshop.bench import BENCHES
from workshop.bench.seats import ballot_game, run


def test_the_ballot_lights_the_voter() -> None:
    game = ballot_game()
    assert SeatLights(on=(3,)) in game.apply(Tap(3))


def test_quick_seats_bench() -> None:
    assert BENCHES["seats"] == "workshop.bench.seats"
    figures = run(quick=True)
    assert figures["pad_to_led_samples"] == 20
    assert figures["timer_window_s"] == 2.0
    for key in ("timer_drift_ms", "pad_to_led_ms_p99", "pad_to_led_ms_median"):
        assert isinstance(figures[key], float), key
    assert 0 < float(figures["pad_to_led_ms_median"]) <= float(figures["pad_to_led_ms_p99"])
    assert abs(float(figures["timer_drift_ms"])) < 1000
    assert "Engine" in str(figures["pad_to_led_path"])
