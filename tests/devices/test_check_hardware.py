"""`narrator check-hardware` on mock pins: unattended, full report, clear exit codes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.clock import Clock, FakeClock
from narrator.devices.check import MockHands, Report, run_unattended
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.pinmap import load_pin_map


def test_unattended_check_passes_on_mock_pins(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert main(["check-hardware"]) == 0
    out = capsys.readouterr().out
    assert "13 of 13 LEDs and 12 of 12 inputs answered" in out
    assert "seat 10 pad" in out and "NO ANSWER" not in out


def test_the_sixteen_seat_map_checks_too(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert main(["check-hardware", "--pins", "pins-16"]) == 0
    assert "19 of 19 LEDs and 19 of 19 inputs answered" in capsys.readouterr().out


def test_a_bad_pin_map_exits_2_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    bad = tmp_path / "pins.yaml"
    bad.write_text("seats: 2\npads: {pins: [4, 4]}\nleds: {pins: [5, 6]}\n"
                   "answer: {green: 20, red: 21}\n")
    assert main(["check-hardware", "--pins", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"narrator: {bad}: pads.pins[1]: GPIO 4 is already used by pads.pins[0] (seat 1 pad)"


class CrossedHands(MockHands):
    """Seat 3's pad is dead; seat 4's wire lands on seat 5's input."""

    async def press(self, clock: Clock, seat: int | None = None,
                    button: str | None = None) -> None:
        if seat == 3:
            return
        await super().press(clock, 5 if seat == 4 else seat, button)


def test_dead_and_crossed_pads_are_reported(factory: Any) -> None:
    async def main_() -> Report:
        clock = FakeClock()
        panel = GpioSeatPanel(load_pin_map(), pin_factory=factory, clock=clock)
        import narrator.devices.check as check

        real = check.MockHands
        check.MockHands = CrossedHands  # type: ignore[misc]
        try:
            return await run_unattended(panel, clock, dwell=0.1, wait=5.0, say=lambda s: None)
        finally:
            check.MockHands = real  # type: ignore[misc]
            panel.close()

    report = asyncio.run(main_())
    by_name = {r.name: r for r in report.inputs}
    assert not by_name["seat 3 pad"].answered
    assert by_name["seat 4 pad"].out_of_turn == ["seat 5 tap"]
    assert by_name["seat 5 pad"].answered and not by_name["seat 5 pad"].out_of_turn
    assert not report.ok
    assert any("NO ANSWER" in line for line in report.lines())
